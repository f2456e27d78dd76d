import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { ownerCredentials } from "./owner-credentials.ts";
import { withOwnerKeys } from "./owner-keys.ts";
import type { RouteCandidate } from "./router.ts";

/**
 * A plan's deployments for a key's owner, as the runtime's policy (GATEWAY_OWNER_KEYS) and their
 * stored provider keys say: unchanged for a key of no portal user, with the feature off, or when the
 * operator has not set GATEWAY_SECRET_KEYS. The keys come from memory; only an owner and provider not
 * asked for lately wait on one database read.
 */
export async function ownerCandidates(
  rt: Runtime,
  owner: string | null | undefined,
  candidates: RouteCandidate[],
): Promise<RouteCandidate[]> {
  const policy = rt.config.ownerKeys;
  if (!owner || policy === "off" || !rt.config.secretBox) return candidates;
  const credentials = ownerCredentials(rt);
  return withOwnerKeys(
    candidates,
    owner,
    policy,
    (provider) => credentials.credentialFor(owner, provider),
    (err, provider) =>
      rt.logger.warn({ err, owner, provider }, "an owner's provider key could not be read; the operator's is used"),
  );
}
