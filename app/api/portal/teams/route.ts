import { teamRequest } from "@/lib/portal/teams/team-requests.ts";
import { myTeams } from "@/lib/portal/teams/team-portal.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The signed-in user's teams and their role in each. */
export async function GET(request: Request): Promise<Response> {
  return teamRequest(request, async (user, rt) => ({ teams: await myTeams(rt.db, user.id) }));
}
