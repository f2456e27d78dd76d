import { z } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route } from "../../gateway/pipeline/route.ts";
import { budgetView, BudgetViewSchema } from "../../usage/budget-view.ts";
import { groupUsage, readUsage, sumUsage, type UsageRow } from "../../usage/reader.ts";

const TotalsSchema = z.object({
  requests: z.number().int(),
  successes: z.number().int(),
  client_errors: z.number().int(),
  server_errors: z.number().int(),
  rate_limited: z.number().int(),
  avg_latency_ms: z.number(),
  bytes_in: z.number().int(),
  bytes_out: z.number().int(),
  tokens: z.number().int(),
});

const UsageSchema = z
  .object({
    key: z.object({ id: z.string(), prefix: z.string() }),
    period: z.object({ today: z.string(), month_start: z.string() }),
    today: TotalsSchema,
    month: TotalsSchema,
    by_route: z.array(TotalsSchema.extend({ route: z.string() })),
    budget: BudgetViewSchema.nullable().openapi({
      description:
        "The key's monthly budget (UTC month) and what this instance has counted against it; cost is estimated USD",
    }),
  })
  .openapi("UsageSummary");

type UsageTotals = z.infer<typeof TotalsSchema>;

const usage = gatewayRoute("key", {
  method: "get",
  path: "/v1/usage",
  summary: "The calling key's usage today and this month (UTC), overall and by route",
  tags: ["Account"],
  responses: { 200: jsonResponse(UsageSchema, "Usage summary"), ...keyedErrors },
});

/** Totals as /v1/usage reports them: a 429 is a client error and is also counted as rate limited. */
function totals(rows: UsageRow[]): UsageTotals {
  const s = sumUsage(rows);
  return {
    requests: s.requests,
    successes: s.ok,
    client_errors: s.client,
    server_errors: s.server,
    rate_limited: s.limited,
    avg_latency_ms: s.requests ? Math.round((s.latency / s.requests) * 10) / 10 : 0,
    bytes_in: s.bytesIn,
    bytes_out: s.bytesOut,
    tokens: s.tokens,
  };
}

const usageRoute = route(usage, async (c) => {
  const key = c.key;
  const runtime = c.runtime;
  if (!key) throw new GatewayError(401, "missing API key");
  const today = new Date().toISOString().slice(0, 10);
  const monthStart = `${today.slice(0, 7)}-01`;
  // The events this instance has not written yet count too: a client sees every request completed before this one.
  const rows = await readUsage(runtime.db, {
    keyIds: [key.id],
    from: monthStart,
    pending: runtime.meter.pendingFor(key.id),
  });
  return {
    key: { id: key.id, prefix: key.prefix },
    period: { today, month_start: monthStart },
    today: totals(rows.filter((r) => r.day === today)),
    month: totals(rows),
    by_route: [...groupUsage(rows, "route")]
      .map(([route, rs]) => ({ route, ...totals(rs) }))
      .sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route)),
    budget: budgetView(runtime.budgets.status(key.id)),
  };
});

/** The calling key's usage; the "account" scope, which every key may call. */
export default defineArea({
  name: "usage",
  scope: "account",
  paths: ["/v1/usage"],
  routes: [usageRoute],
});
