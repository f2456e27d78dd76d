import { getGateway } from "@/lib/instance.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { usageQuery, usageReport } from "@/lib/portal/usage/report.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every key's usage, for operators: top keys, error rates, areas, latency, tokens. */
export async function GET(request: Request): Promise<Response> {
  const session = await currentSession();
  if (!session) return Response.json({ error: "sign in first" }, { status: 401 });
  if (!session.user.operator) return Response.json({ error: "operators only" }, { status: 403 });
  const parsed = usageQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return Response.json({ error: "invalid query: key must be a key id" }, { status: 400 });
  const { rt } = await getGateway();
  const report = await usageReport(rt.db, { keyId: parsed.data.key });
  return Response.json({ report }, { headers: { "Cache-Control": "no-store" } });
}
