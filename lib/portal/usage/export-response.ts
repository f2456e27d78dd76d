import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { requestLogCsv } from "./log-export.ts";
import { reportFor, type ReportScope } from "./report.ts";
import { parseRequestLogParams, type LogScope } from "./request-log.ts";
import { USAGE_EXPORT_GROUPS, usageCsv, type UsageExportGroup } from "./usage-export.ts";

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
  return csvDownload(csv, `requests-${day}.csv`, rows, more ? { "X-Export-More": more } : {});
}

/** A CSV file to save, never cached, with how many rows it holds. */
function csvDownload(csv: string, filename: string, rows: number, headers: Record<string, string> = {}): Response {
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Export-Rows": String(rows),
      ...headers,
    },
  });
}

/**
 * A usage report over the query's period (the dashboard's query) as a CSV download of one group's rows
 * (`group`: day, endpoint, model, key or tag; default day). A bad query is a 400 saying what is wrong.
 */
export async function usageDownload(rt: Runtime, scope: ReportScope, url: URL, operator: boolean): Promise<Response> {
  const { group = "day", ...query } = Object.fromEntries(url.searchParams);
  if (!(USAGE_EXPORT_GROUPS as readonly string[]).includes(group))
    return Response.json({ error: `group must be one of ${USAGE_EXPORT_GROUPS.join(", ")}` }, { status: 400 });
  const asked = await reportFor(rt.db, scope, query);
  if ("problem" in asked) return Response.json({ error: asked.problem }, { status: 400 });
  const { csv, rows } = usageCsv(asked.report, asked.tags, group as UsageExportGroup, operator);
  return csvDownload(csv, `usage-${group}-${asked.report.from}-to-${asked.report.to}.csv`, rows);
}
