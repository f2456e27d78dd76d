import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { requestLogCsv } from "./log-export.ts";
import { parseRequestLogParams, type LogScope } from "./request-log.ts";

/**
 * The request log under the query's filter as a CSV download. A bad filter is a 400 naming each field,
 * as the log page says it; a log longer than EXPORT_ROWS rows (log-export.ts) is cut there, and `X-Export-More` holds
 * the cursor (`before=`) of the rows after it.
 */
export async function requestLogDownload(rt: Runtime, scope: LogScope, url: URL): Promise<Response> {
  const parsed = parseRequestLogParams(Object.fromEntries(url.searchParams));
  if (!parsed.ok) return Response.json({ error: parsed.errors.join("; ") }, { status: 400 });
  const { csv, rows, more } = await requestLogCsv(rt, scope, parsed.params);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="requests-${day}.csv"`,
      "Cache-Control": "no-store",
      "X-Export-Rows": String(rows),
      ...(more ? { "X-Export-More": more } : {}),
    },
  });
}
