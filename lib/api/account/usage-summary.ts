import type { Database } from "../../db/client.ts";
import { rollUp, type UsageEventInput } from "../../usage/meter.ts";

export type UsageTotals = {
  requests: number;
  successes: number;
  client_errors: number;
  server_errors: number;
  rate_limited: number;
  avg_latency_ms: number;
  bytes_in: number;
  bytes_out: number;
  tokens: number;
};

type Row = {
  day: string;
  route: string;
  requests: number;
  ok: number;
  client: number;
  server: number;
  limited: number;
  latency: number;
  bytesIn: number;
  bytesOut: number;
  tokens: number;
};

/**
 * A key's usage for today and this month (UTC) from the daily rollups, plus events this instance
 * recorded and has not written yet, so a client sees every request completed before this one.
 */
export async function usageSummary(db: Database, keyId: string, pending: UsageEventInput[], now = new Date()) {
  const today = now.toISOString().slice(0, 10);
  const monthStart = `${today.slice(0, 7)}-01`;
  const stored = await db.prisma.usageDaily.findMany({
    where: { keyId, day: { gte: new Date(`${monthStart}T00:00:00Z`) } },
  });
  const rows: Row[] = [
    ...stored.map((r) => ({
      day: r.day.toISOString().slice(0, 10),
      route: r.route,
      requests: r.requests,
      ok: r.status2xx,
      client: r.status4xx,
      server: r.status5xx,
      limited: r.status429,
      latency: Number(r.latencyMsSum),
      bytesIn: Number(r.bytesIn),
      bytesOut: Number(r.bytesOut),
      tokens: Number(r.tokens),
    })),
    ...rollUp(pending).filter((r) => r.day >= monthStart),
  ];
  const byRoute = new Map<string, Row[]>();
  for (const r of rows) byRoute.set(r.route, [...(byRoute.get(r.route) ?? []), r]);
  return {
    period: { today, month_start: monthStart },
    today: totals(rows.filter((r) => r.day === today)),
    month: totals(rows),
    by_route: [...byRoute]
      .map(([route, rs]) => ({ route, ...totals(rs) }))
      .sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route)),
  };
}

function totals(rows: Row[]): UsageTotals {
  const sum = (f: (r: Row) => number) => rows.reduce((n, r) => n + f(r), 0);
  const requests = sum((r) => r.requests);
  return {
    requests,
    successes: sum((r) => r.ok),
    client_errors: sum((r) => r.client),
    server_errors: sum((r) => r.server),
    rate_limited: sum((r) => r.limited),
    avg_latency_ms: requests ? Math.round((sum((r) => r.latency) / requests) * 10) / 10 : 0,
    bytes_in: sum((r) => r.bytesIn),
    bytes_out: sum((r) => r.bytesOut),
    tokens: sum((r) => r.tokens),
  };
}
