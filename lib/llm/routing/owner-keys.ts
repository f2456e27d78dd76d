import { GatewayError } from "../../errors.ts";
import type { RouteCandidate } from "./router.ts";

/**
 * How the router uses the provider keys owners store (GATEWAY_OWNER_KEYS): `prefer` sends a call on
 * the owner's key first and on the operator's after it, `only` never on the operator's key for a
 * provider the owner has a key for, `off` never on the owner's.
 */
export const OWNER_KEY_POLICIES = ["prefer", "only", "off"] as const;
export type OwnerKeyPolicy = (typeof OWNER_KEY_POLICIES)[number];

/** The owner's key for a provider, or undefined (none stored); throws when it cannot be known (the database, on a miss). */
export type OwnerKeyLookup = (provider: string) => Promise<string | undefined>;

/**
 * A plan's deployments with the owner's keys in: for each deployment of a provider the owner has a
 * key for, the same deployment on the owner's key (`owner` set, its own breaker, no statistics),
 * before it (prefer) or instead of it (only). One owner attempt per provider, model and origin: a key
 * pool of the operator's is several keys, the owner has one. A lookup that fails leaves the operator's
 * keys under prefer, and is a 503 under only, where the operator's key must not stand in.
 */
export async function withOwnerKeys(
  candidates: readonly RouteCandidate[],
  owner: string,
  policy: OwnerKeyPolicy,
  lookup: OwnerKeyLookup,
  onError: (err: unknown, provider: string) => void,
): Promise<RouteCandidate[]> {
  if (policy === "off") return [...candidates];
  const keys = new Map<string, string | undefined>();
  for (const c of candidates) {
    const provider = c.entry.name;
    if (c.entry.keyless || keys.has(provider)) continue;
    try {
      keys.set(provider, await lookup(provider));
    } catch (err) {
      if (policy === "only")
        throw new GatewayError(503, `your ${provider} key could not be read just now; try again shortly`);
      onError(err, provider);
      keys.set(provider, undefined);
    }
  }
  const out: RouteCandidate[] = [];
  const sent = new Set<string>();
  for (const c of candidates) {
    const apiKey = keys.get(c.entry.name);
    if (apiKey === undefined) {
      out.push(c);
      continue;
    }
    const where = `${c.entry.name}\0${c.modelId}\0${c.entry.fixedOrigin ?? ""}`;
    if (!sent.has(where)) {
      sent.add(where);
      // On the owner's own key: the deployment's per-minute share (the operator's key's) is not theirs.
      const { limits: _operators, ...deployment } = c;
      out.push({ ...deployment, entry: { ...c.entry, apiKey }, owner, known: false });
    }
    if (policy === "prefer") out.push(c);
  }
  return out;
}
