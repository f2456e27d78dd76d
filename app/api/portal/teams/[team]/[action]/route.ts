import { publishKeyChange } from "@/lib/portal/keys/publish-change.ts";
import { getPortal } from "@/lib/portal/sign-in/auth.ts";
import { teamRequest } from "@/lib/portal/teams/team-requests.ts";
import {
  askToJoin,
  changeRole,
  decideJoin,
  createTeamKey,
  invite,
  leaveTeam,
  removeFromTeam,
  TeamActionError,
} from "@/lib/portal/teams/team-portal.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ team: string; action: string }> };

/**
 * A change to one of the signed-in user's teams: invite, role, remove, leave, keys (a new key, shown
 * once), decide (a request to join); or ask, to join the team the user's verified domain offers.
 */
export async function POST(request: Request, { params }: Params): Promise<Response> {
  const { team, action } = await params;
  return teamRequest(request, async (user, rt, body) => {
    switch (action) {
      case "invite": {
        const { config, mailer } = await getPortal();
        return invite(rt.db, mailer, config.url, user, team, body);
      }
      case "role":
        return changeRole(rt.db, user, team, body);
      case "remove": {
        const { revoked, ...done } = await removeFromTeam(rt.db, user, team, body);
        await publishKeyChange(rt, ...revoked);
        return { ...done, revokedKeys: revoked.map((k) => k.id) };
      }
      case "leave": {
        const { revoked } = await leaveTeam(rt.db, user, team);
        await publishKeyChange(rt, ...revoked);
        return { left: team, revokedKeys: revoked.map((k) => k.id) };
      }
      case "ask":
        return askToJoin(rt.db, user, team);
      case "decide":
        return decideJoin(rt.db, user, team, body);
      case "keys": {
        const created = await createTeamKey(rt.db, user, team, body);
        await publishKeyChange(rt, created.record);
        return { id: created.id, name: created.record.name, prefix: created.prefix, key: created.key };
      }
      default:
        throw new TeamActionError(`no team action ${action}`, 404);
    }
  });
}
