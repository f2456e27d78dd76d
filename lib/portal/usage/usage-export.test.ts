import { describe, expect, it } from "vitest";
import { presetPeriod } from "./period.ts";
import type { TagReport, UsageReport } from "./summary.ts";
import { usageCsv } from "./usage-export.ts";

const period = presetPeriod("7d", new Date("2026-03-15T12:00:00Z"));
const counts = { requests: 3, ok: 2, client: 0, server: 0, limited: 1 };
const report = {
  from: period.from,
  to: period.to,
  label: period.label,
  daily: [{ day: "2026-03-15", ...counts, p50_ms: 12, p95_ms: null }],
  routes: [{ route: "/v1/llm/chat", area: "llm", ...counts, tokens: 1500 }],
  models: [
    {
      provider: "xai",
      model: "grok-4-fast",
      requests: 2,
      prompt_tokens: 1000,
      completion_tokens: 500,
      cost_usd: 0.00045,
    },
  ],
  keys: [
    {
      id: "k1",
      name: "=cmd|' /C calc'!A0",
      prefix: "sk_abc",
      owner: "a@example.test",
      team_id: null,
      kind: "api",
      ...counts,
      error_rate: 1 / 3,
      tokens: 1500,
      cost_usd: 0.00045,
    },
  ],
} as unknown as UsageReport;
const tags: TagReport = {
  names: ["feature"],
  name: "feature",
  rows: [{ value: "search", requests: 2, failed: 0, tokens: 1500, cost_usd: 0.00045, unpriced: 0 }],
  total: null,
};

describe("usage as CSV", () => {
  it("lists one group's rows, each stamped with the period, a 429 counted as rate limited alone", () => {
    expect(usageCsv(report, tags, "day", false).csv).toBe(
      "from,to,day,requests,ok,client_errors,rate_limited,server_errors,latency_p50_ms,latency_p95_ms\r\n" +
        "2026-03-09,2026-03-15,2026-03-15,3,2,0,1,0,12,",
    );
    expect(usageCsv(report, tags, "model", false).csv.split("\r\n")[1]).toBe(
      "2026-03-09,2026-03-15,xai,grok-4-fast,2,1000,500,0.000450",
    );
    expect(usageCsv(report, tags, "tag", false).csv.split("\r\n")[1]).toBe(
      "2026-03-09,2026-03-15,feature,search,2,0,1500,0.000450",
    );
  });

  it("names keys' owners to operators only, and never lets a key's name run as a formula", () => {
    const mine = usageCsv(report, tags, "key", false).csv.split("\r\n");
    expect(mine[0]).not.toContain("owner");
    expect(mine[1]).toContain(`"'=cmd|' /C calc'!A0"`);
    expect(usageCsv(report, tags, "key", true).csv.split("\r\n")[0]).toContain("key_prefix,owner,requests");
  });

  it("writes the header alone when the period has no rows", () => {
    expect(usageCsv({ ...report, routes: [] }, tags, "endpoint", false)).toEqual({
      csv: "from,to,route,area,requests,ok,client_errors,rate_limited,server_errors,tokens\r\n",
      rows: 0,
    });
  });
});
