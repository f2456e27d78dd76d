import { getGateway } from "@/lib/instance.ts";
import { usageDownload } from "@/lib/portal/usage/export-response.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The signed-in user's usage over the dashboard's period, one group's rows, as CSV. */
export async function GET(request: Request): Promise<Response> {
  const session = await currentSession();
  if (!session) return Response.json({ error: "sign in to export your usage" }, { status: 401 });
  const { rt } = await getGateway();
  return usageDownload(rt, { owner: session.user.id }, new URL(request.url), false);
}
