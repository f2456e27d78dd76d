import Papa from "papaparse";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { decodeCursor, requestLogView, type LogScope, type RequestLogParams } from "./request-log.ts";

/** At most this many rows in one export: a larger one asks for a narrower filter (the file says so). */
export const EXPORT_ROWS = 10_000;
const BATCH = 1_000;

const COLUMNS = [
  "time",
  "request_id",
  "key_name",
  "key_prefix",
  "owner",
  "method",
  "route",
  "area",
  "status",
  "latency_ms",
  "provider",
  "model",
  "prompt_tokens",
  "completion_tokens",
  "estimated_cost_usd",
  "cache",
  "error",
  "user_agent",
  "tags",
] as const;

/**
 * The request log under the filter as CSV, newest first, at most EXPORT_ROWS rows; `more` is the cursor
 * of the rows after them, set only when the export stopped at EXPORT_ROWS with rows left. Cells a spreadsheet would run as a formula (=, +, -, @)
 * are escaped as text: a caller's user agent or tags are theirs to choose.
 */
export async function requestLogCsv(
  rt: Runtime,
  scope: LogScope,
  p: RequestLogParams,
): Promise<{ csv: string; rows: number; more: string | null }> {
  const rows: Record<(typeof COLUMNS)[number], unknown>[] = [];
  let params = p;
  let next: string | null = null;
  while (rows.length < EXPORT_ROWS) {
    const view = await requestLogView(rt, scope, params, Math.min(BATCH, EXPORT_ROWS - rows.length));
    for (const r of view.rows)
      rows.push({
        time: r.at.toISOString(),
        request_id: r.requestId,
        key_name: r.key?.name ?? "",
        key_prefix: r.key?.prefix ?? "",
        owner: "operator" in scope ? (r.key?.email ?? "") : "",
        method: r.method,
        route: r.route,
        area: r.area,
        status: r.status,
        latency_ms: r.latencyMs,
        provider: r.provider ?? "",
        model: r.model ?? "",
        prompt_tokens: r.promptTokens ?? "",
        completion_tokens: r.completionTokens ?? "",
        estimated_cost_usd: r.costUsd === null ? "" : r.costUsd.toFixed(6),
        cache: r.cache?.state ?? "",
        error: r.error ?? "",
        user_agent: r.userAgent ?? "",
        tags: r.tags
          ? Object.entries(r.tags)
              .map(([k, v]) => `${k}=${v}`)
              .join("; ")
          : "",
      });
    next = view.next;
    if (!next) break;
    params = { ...p, before: decodeCursor(next) };
  }
  const columns = "operator" in scope ? [...COLUMNS] : COLUMNS.filter((c) => c !== "owner");
  const csv = Papa.unparse(
    { fields: columns, data: rows.map((r) => columns.map((c) => r[c])) },
    {
      newline: "\r\n",
      escapeFormulae: true,
    },
  );
  return { csv, rows: rows.length, more: next };
}
