import Papa from "papaparse";
import type { TagReport, UsageReport } from "./summary.ts";

/** What a usage export lists a row of: each day of the period, or the dashboard's groups. */
export const USAGE_EXPORT_GROUPS = ["day", "endpoint", "model", "key", "tag"] as const;
export type UsageExportGroup = (typeof USAGE_EXPORT_GROUPS)[number];

const cost = (usd: number | null) => (usd === null ? "" : usd.toFixed(6));

const COLUMNS: Record<UsageExportGroup, readonly string[]> = {
  day: ["day", "requests", "ok", "client_errors", "rate_limited", "server_errors", "latency_p50_ms", "latency_p95_ms"],
  endpoint: ["route", "area", "requests", "ok", "client_errors", "rate_limited", "server_errors", "tokens"],
  model: ["provider", "model", "calls", "prompt_tokens", "completion_tokens", "estimated_cost_usd"],
  key: [
    "key_name",
    "key_prefix",
    "owner",
    "requests",
    "client_errors",
    "rate_limited",
    "server_errors",
    "tokens",
    "estimated_cost_usd",
  ],
  tag: ["tag", "value", "requests", "failed", "tokens", "estimated_cost_usd"],
};

/** The rows of one group, as the dashboard counts them (a 429 in rate_limited alone, never in client_errors). */
function table(report: UsageReport, tags: TagReport, group: UsageExportGroup): Record<string, unknown>[] {
  switch (group) {
    case "day":
      return report.daily.map((d) => ({
        day: d.day,
        requests: d.requests,
        ok: d.ok,
        client_errors: d.client,
        rate_limited: d.limited,
        server_errors: d.server,
        latency_p50_ms: d.p50_ms ?? "",
        latency_p95_ms: d.p95_ms ?? "",
      }));
    case "endpoint":
      return report.routes.map((r) => ({
        route: r.route,
        area: r.area,
        requests: r.requests,
        ok: r.ok,
        client_errors: r.client,
        rate_limited: r.limited,
        server_errors: r.server,
        tokens: r.tokens,
      }));
    case "model":
      return report.models.map((m) => ({
        provider: m.provider,
        model: m.model,
        calls: m.requests,
        prompt_tokens: m.prompt_tokens,
        completion_tokens: m.completion_tokens,
        estimated_cost_usd: cost(m.cost_usd),
      }));
    case "key":
      return report.keys.map((k) => ({
        key_name: k.name,
        key_prefix: k.prefix,
        owner: k.owner ?? "",
        requests: k.requests,
        client_errors: k.client,
        rate_limited: k.limited,
        server_errors: k.server,
        tokens: k.tokens,
        estimated_cost_usd: cost(k.cost_usd),
      }));
    case "tag":
      return tags.rows.map((r) => ({
        tag: tags.name ?? "",
        value: r.value ?? "(every other value)",
        requests: r.requests,
        failed: r.failed,
        tokens: r.tokens,
        estimated_cost_usd: cost(r.cost_usd),
      }));
  }
}

/**
 * A usage report's rows of one group as CSV, each row stamped with the period. Cells a spreadsheet would
 * run as a formula are escaped as text: a key's name and a tag's value are their owners' to choose.
 */
export function usageCsv(
  report: UsageReport,
  tags: TagReport,
  group: UsageExportGroup,
  operator: boolean,
): { csv: string; rows: number } {
  // A key's owner is named to operators only.
  const columns = COLUMNS[group].filter((c) => operator || c !== "owner");
  const rows = table(report, tags, group).map((row) => [report.from, report.to, ...columns.map((c) => row[c])]);
  return {
    csv: Papa.unparse({ fields: ["from", "to", ...columns], data: rows }, { newline: "\r\n", escapeFormulae: true }),
    rows: rows.length,
  };
}
