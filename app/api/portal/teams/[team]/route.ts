import { teamRequest } from "@/lib/portal/teams/team-requests.ts";
import { teamView } from "@/lib/portal/teams/team-portal.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One of the signed-in user's teams as their role sees it: members, keys, open invitations. */
export async function GET(request: Request, { params }: { params: Promise<{ team: string }> }): Promise<Response> {
  const { team } = await params;
  return teamRequest(request, (user, rt) => teamView(rt.db, user, team));
}
