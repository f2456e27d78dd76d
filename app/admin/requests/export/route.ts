import { getGateway } from "@/lib/instance.ts";
import { requestLogDownload } from "@/lib/portal/usage/export-response.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every key's request log, under the log page's filter, as CSV: operators only. */
export async function GET(request: Request): Promise<Response> {
  const session = await currentSession();
  if (!session) return Response.json({ error: "sign in first" }, { status: 401 });
  if (!session.user.operator) return Response.json({ error: "operators only" }, { status: 403 });
  const { rt } = await getGateway();
  return requestLogDownload(rt, { operator: true }, new URL(request.url));
}
