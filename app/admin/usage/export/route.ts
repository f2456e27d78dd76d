import { getGateway } from "@/lib/instance.ts";
import { usageDownload } from "@/lib/portal/usage/export-response.ts";
import { operatorOrRefusal } from "@/lib/portal/sign-in/session.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every key's usage over the dashboard's period, one group's rows, as CSV: operators only. */
export async function GET(request: Request): Promise<Response> {
  const operator = await operatorOrRefusal();
  if ("refusal" in operator) return operator.refusal;
  const { rt } = await getGateway();
  return usageDownload(rt, {}, new URL(request.url), true);
}
