import { GatewayError } from "../../errors.ts";
import type { KeyRecord } from "../../gateway/keys/record.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import { isAdminRole } from "../../gateway/teams/team-changes.ts";
import { KEYS_ADMIN, reachOf, type Reach } from "./keys/rights.ts";

/**
 * The caller's reach, checked now: it holds keys:admin, and a member's key is still its owner's or an
 * admin's of the team (a role taken away takes the key's powers with it at once).
 */
export async function reach(c: Call): Promise<{ key: KeyRecord; reach: Reach }> {
  const key = c.key;
  if (!key) throw new GatewayError(401, "missing API key");
  const found = reachOf(key);
  if (!found) throw new GatewayError(403, `managing keys needs the ${KEYS_ADMIN} scope, which this key lacks`);
  if (found.kind === "team" && key.userId) {
    const member = await c.runtime.db.prisma.teamMember.findUnique({
      where: { teamId_userId: { teamId: found.teamId, userId: key.userId } },
    });
    if (!member || !isAdminRole(member.role))
      throw new GatewayError(403, "this key's owner is no longer an owner or admin of its team");
  }
  return { key, reach: found };
}
