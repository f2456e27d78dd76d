import { getGateway } from "@/lib/instance.ts";
import { requestLogDownload } from "@/lib/portal/usage/export-response.ts";
import { operatorOrRefusal } from "@/lib/portal/sign-in/session.ts";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every key's request log, under the log page's filter, as CSV: operators only. */
export async function GET(request: Request): Promise<Response> {
  const operator = await operatorOrRefusal();
  if ("refusal" in operator) return operator.refusal;
  const { rt } = await getGateway();
  return requestLogDownload(rt, { operator: true }, new URL(request.url));
}
