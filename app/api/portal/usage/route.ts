import { getGateway } from "@/lib/instance.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { quotaNow, reportFor } from "@/lib/portal/usage/report.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The signed-in user's usage over a period (all their keys, or one), by tag if asked, and what each key has left now. */
export async function GET(request: Request): Promise<Response> {
  const session = await currentSession();
  if (!session) return Response.json({ error: "sign in to see your usage" }, { status: 401 });
  const { rt } = await getGateway();
  const [asked, quota] = await Promise.all([
    reportFor(rt.db, { owner: session.user.id }, Object.fromEntries(new URL(request.url).searchParams)),
    quotaNow(rt, session.user.id),
  ]);
  if ("problem" in asked) return Response.json({ error: asked.problem }, { status: 400 });
  return Response.json({ ...asked, quota }, { headers: { "Cache-Control": "no-store" } });
}
