import type { Context } from "hono";
import { isDatabaseUnreachable } from "../../db/unreachable.ts";
import { GatewayError } from "../../errors.ts";
import { keyAllowsArea, type KeyRecord } from "../keys/record.ts";
import type { KeyStore } from "../keys/store.ts";
import type { SessionBridge } from "../keys/session-bridge.ts";

/** K, O and N in the spec: key required, key optional, no authentication. */
export type AuthMode = "key" | "optional" | "none";

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="gateway"' };

/** The key a request carries, from X-API-Key, Authorization: Bearer, or ?api_key=. */
export function presentedKey(c: Context): string | undefined {
  const values = new Set<string>();
  const header = c.req.header("x-api-key")?.trim();
  if (header) values.add(header);
  const authorization = c.req.header("authorization")?.trim();
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) throw new GatewayError(401, "Authorization header must be 'Bearer <API_KEY>'", CHALLENGE);
    values.add(match[1]!);
  }
  const query = c.req.query("api_key")?.trim();
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
  c: Context,
  { keys, sessions }: Credentials,
  mode: Exclude<AuthMode, "none">,
  area: string,
  now = Date.now(),
): Promise<KeyRecord | undefined> {
  const raw = presentedKey(c);
  let key: KeyRecord | null | undefined;
  try {
    key = raw ? await keys.resolve(raw) : await sessions?.fromRequest(c, now);
  } catch (err) {
    if (!isDatabaseUnreachable(err)) throw err;
    // A key this instance has not seen yet is read from the database; while that is unreachable the
    // key can be neither accepted nor refused. Keys already in memory keep working (the key cache).
    throw new GatewayError(503, "API keys cannot be checked right now (database unreachable); try again shortly", {
      "Retry-After": "5",
    });
  }
  if (!raw && !key) {
    if (mode === "optional") return undefined;
    const hint = sessions?.crossSiteCookie(c) ? " (a portal session is accepted only on same-origin requests)" : "";
    throw new GatewayError(
      401,
      `missing API key: send it in the X-API-Key header (or Authorization: Bearer, or ?api_key=)${hint}`,
      CHALLENGE,
    );
  }
  if (!key) throw new GatewayError(401, "invalid API key", CHALLENGE);
  if (key.status === "revoked")
    throw new GatewayError(
      401,
      raw ? "API key has been revoked" : "console access for this account has been revoked by the operator",
      CHALLENGE,
    );
  if (key.expiresAt !== null && key.expiresAt <= now) {
    throw new GatewayError(
      401,
      key.replaced ? "API key has been rotated: use its replacement" : "API key has expired",
      CHALLENGE,
    );
  }
  if (!keyAllowsArea(key, area))
    throw new GatewayError(403, `this API key has no access to '${area}' (its scopes: ${key.scopes.join(", ")})`);
  return key;
}
