import { getGateway } from "@/lib/instance.ts";
import { operatorOrRefusal } from "@/lib/portal/sign-in/session.ts";
import { reportFor } from "@/lib/portal/usage/report.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every key's usage over a period, for operators: top keys, error rates, areas, latency, tokens, tags. */
export async function GET(request: Request): Promise<Response> {
  const operator = await operatorOrRefusal();
  if ("refusal" in operator) return operator.refusal;
  const { rt } = await getGateway();
  const asked = await reportFor(rt.db, {}, Object.fromEntries(new URL(request.url).searchParams));
  if ("problem" in asked) return Response.json({ error: asked.problem }, { status: 400 });
  return Response.json(asked, { headers: { "Cache-Control": "no-store" } });
}
