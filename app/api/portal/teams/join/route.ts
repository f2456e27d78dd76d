import { teamRequest } from "@/lib/portal/teams/team-requests.ts";
import { acceptInvitation, TeamActionError } from "@/lib/portal/teams/team-portal.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Accepts an invitation (`{token}` from its link) as the signed-in user, who must be the invited address. */
export async function POST(request: Request): Promise<Response> {
  return teamRequest(request, async (user, rt, body) => {
    const token = typeof body.token === "string" ? body.token.slice(0, 200) : "";
    if (!token) throw new TeamActionError("no invitation token", 404);
    const team = await acceptInvitation(rt.db, user, token);
    return { joined: team };
  });
}
