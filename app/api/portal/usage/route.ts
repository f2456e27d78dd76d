import { getGateway } from "@/lib/instance.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { quotaNow, usageQuery, usageReport } from "@/lib/portal/usage/report.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The signed-in user's usage (all their keys, or one) and what each key has left now. */
export async function GET(request: Request): Promise<Response> {
  const session = await currentSession();
  if (!session) return Response.json({ error: "sign in to see your usage" }, { status: 401 });
  const parsed = usageQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return Response.json({ error: "invalid query: key must be a key id" }, { status: 400 });
  const { rt } = await getGateway();
  const [report, quota] = await Promise.all([
    usageReport(rt.db, { owner: session.user.id, keyId: parsed.data.key }),
    quotaNow(rt, session.user.id),
  ]);
  return Response.json({ report, quota }, { headers: { "Cache-Control": "no-store" } });
}
