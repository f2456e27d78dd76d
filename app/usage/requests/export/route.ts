import { getGateway } from "@/lib/instance.ts";
import { requestLogDownload } from "@/lib/portal/usage/export-response.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The signed-in user's request log, under the log page's filter, as CSV. */
export async function GET(request: Request): Promise<Response> {
  const session = await currentSession();
  if (!session) return Response.json({ error: "sign in to export your request log" }, { status: 401 });
  const { rt } = await getGateway();
  return requestLogDownload(rt, { owner: session.user.id }, new URL(request.url));
}
