import { isDatabaseUnreachable } from "../../db/unreachable.ts";
import { GatewayError } from "../../errors.ts";
import { modelsWithheldMessage } from "../keys/console-access.ts";
import { keyAllowsArea, type KeyRecord } from "../keys/record.ts";
import type { KeyStore } from "../keys/store.ts";
import type { SessionBridge } from "../keys/session-bridge.ts";

/** K, O and N in the spec: key required, key optional, no authentication. */
export type AuthMode = "key" | "optional" | "none";

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="gateway"' };

/** What the key is read from: the request's headers and query. */
export type RequestHeads = {
  header(name: string): string | undefined;
  query(name: string): string | undefined;
};

/** What authentication reads of a request: its headers and query, and its URL (a session's origin check). */
export type RequestView = RequestHeads & { readonly url: string };

/** The key a request carries, from X-API-Key, Authorization: Bearer, or ?api_key=. */
export function presentedKey(req: RequestHeads): string | undefined {
  const values = new Set<string>();
  const header = req.header("x-api-key")?.trim();
  if (header) values.add(header);
  const authorization = req.header("authorization")?.trim();
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw new GatewayError(401, "Authorization header must be 'Bearer <API_KEY>'", CHALLENGE);
    values.add(match[1]!);
  }
  const query = req.query("api_key")?.trim();
  if (query) values.add(query);
  if (values.size > 1)
    throw new GatewayError(400, "send one API key: the X-API-Key header, Authorization: Bearer, and api_key disagree");
  return values.values().next().value;
}

export type Credentials = { keys: KeyStore; sessions?: SessionBridge };

/**
 * Authenticates for a route of the given mode and area. Returns the key (or undefined where a key is
 * optional and none was sent); throws 401 for a missing, unknown, revoked or expired key and 403 for
 * a key whose scopes do not include the area. With no key sent, a same-origin request from a
 * signed-in portal session is served as the user's console key (see SessionBridge).
 */
export async function authenticate(
  c: RequestView,
  { keys, sessions }: Credentials,
  mode: Exclude<AuthMode, "none">,
  area: string,
  now = Date.now(),
): Promise<KeyRecord | undefined> {
  const raw = presentedKey(c);
  if (raw) return acceptKey(await resolvePresented(keys, raw), area, true, now);
  const key = await reachingDatabase(() => sessions?.fromRequest(c, now));
  if (key) return acceptKey(key, area, false, now);
  if (mode === "optional") return undefined;
  const hint = sessions?.crossSiteCookie(c) ? " (a portal session is accepted only on same-origin requests)" : "";
  throw new GatewayError(
    401,
    `missing API key: send it in the X-API-Key header (or Authorization: Bearer, or ?api_key=)${hint}`,
    CHALLENGE,
  );
}

/** The record of a key a request presented, or null for a key no one has. */
export const resolvePresented = (keys: KeyStore, raw: string): Promise<KeyRecord | null> =>
  reachingDatabase(() => keys.resolve(raw));

async function reachingDatabase<T>(read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!isDatabaseUnreachable(err)) throw err;
    // A key this instance has not seen yet is read from the database; while that is unreachable the
    // key can be neither accepted nor refused. Keys already in memory keep working (the key cache).
    throw new GatewayError(503, "API keys cannot be checked right now (database unreachable); try again shortly", {
      "Retry-After": "5",
    });
  }
}

/**
 * The key, when it may call the area now: 401 for an unknown (null), revoked or expired key, 403 for
 * one whose scopes leave the area out, or a console's model area while its user awaits approval.
 * `presented`: sent by the client, not a portal session's console key.
 */
export function acceptKey(key: KeyRecord | null, area: string, presented: boolean, now = Date.now()): KeyRecord {
  if (!key) throw new GatewayError(401, "invalid API key", CHALLENGE);
  if (key.status === "revoked")
    throw new GatewayError(
      401,
      presented ? "API key has been revoked" : "console access for this account has been revoked by the operator",
      CHALLENGE,
    );
  if (key.expiresAt !== null && key.expiresAt <= now) {
    throw new GatewayError(
      401,
      key.replaced ? "API key has been rotated: use its replacement" : "API key has expired",
      CHALLENGE,
    );
  }
  // A console key carries `withheld` only while its user awaits approval: presented keys never look.
  if (!presented && key.withheld?.includes(area)) throw new GatewayError(403, modelsWithheldMessage(area));
  if (!keyAllowsArea(key, area))
    throw new GatewayError(403, `this API key has no access to '${area}' (its scopes: ${key.scopes.join(", ")})`);
  return key;
}
