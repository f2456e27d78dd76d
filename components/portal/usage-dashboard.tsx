"use client";

import { useState } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import useSWR from "swr";
import type { QuotaNow, UsageReport } from "@/lib/portal/usage/report";
import { cacheSummary, describeTotals, failedRequests, STATUS_CLASSES, usd } from "@/lib/portal/usage/summary";
import { DataTable } from "./data-table";
import { Section } from "./section";

type Payload = { report: UsageReport; quota?: QuotaNow[] };
type KeyOption = { id: string; label: string };

const COLORS = {
  ok: "#059669",
  client: "#d97706",
  server: "#dc2626",
  limited: "#7c3aed",
  p50: "#2563eb",
  p95: "#db2777",
  prompt: "#0891b2",
  completion: "#4f46e5",
};
const axis = { stroke: "currentColor", tick: { fill: "currentColor", fontSize: 12 } };

/** One bar per status class, stacked together as `stackId`. */
const statusBars = (stackId: string) =>
  STATUS_CLASSES.map((c) => (
    <Bar key={c.dataKey} dataKey={c.dataKey} name={c.name} fill={COLORS[c.dataKey]} stackId={stackId} />
  ));

class FetchError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfter: string | null,
  ) {
    super(message);
  }
}

async function fetchJson(url: string): Promise<Payload> {
  const res = await fetch(url, { credentials: "same-origin" });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new FetchError(body.error ?? `request failed (${res.status})`, res.status, res.headers.get("retry-after"));
  }
  return res.json() as Promise<Payload>;
}

function Chart({ title, summary, children }: { title: string; summary: string; children: React.ReactElement }) {
  return (
    <figure className="rounded-xl border border-slate-300 p-4 dark:border-slate-700">
      <figcaption className="font-semibold">{title}</figcaption>
      {/* The drawing is hidden from assistive technology (and kept out of the tab order); this says what it shows. */}
      <p className="sr-only">{summary}</p>
      <div className="mt-2 h-64 text-slate-700 dark:text-slate-300" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Usage charts for `endpoint` (the user's own, or every key for operators), refreshed every 10 s. */
export function UsageDashboard({
  endpoint,
  keys,
  showKeys,
}: {
  endpoint: string;
  keys: KeyOption[];
  showKeys: boolean;
}) {
  const [keyId, setKeyId] = useState("");
  const url = keyId ? `${endpoint}?key=${encodeURIComponent(keyId)}` : endpoint;
  const { data, error, isLoading } = useSWR<Payload, FetchError>(url, fetchJson, {
    refreshInterval: 10_000,
    keepPreviousData: true,
  });

  return (
    <div className="mt-6 space-y-6">
      {keys.length > 1 && (
        <label className="block max-w-sm">
          <span className="font-medium">Show</span>
          <select
            value={keyId}
            onChange={(e) => setKeyId(e.target.value)}
            className="mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          >
            <option value="">All keys</option>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {error && (
        <p role="alert" className="rounded-lg border border-red-600 p-3 text-red-800 dark:text-red-300">
          Could not load usage: {error.message}
          {error.status === 429 && error.retryAfter ? ` Try again in ${error.retryAfter} s.` : ""}
        </p>
      )}
      {isLoading && !data && <p role="status">Loading usage…</p>}
      {data && <Report data={data} showKeys={showKeys} />}
    </div>
  );
}

function Report({ data, showKeys }: { data: Payload; showKeys: boolean }) {
  const { report, quota } = data;
  const t = report.totals;
  const errorRate = t.requests ? failedRequests(t) / t.requests : 0;
  const words = describeTotals(report);
  return (
    <>
      <dl
        className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7"
        aria-label={`Totals from ${report.from} to ${report.to} (UTC)`}
      >
        {[
          ["Requests (30 days)", t.requests.toLocaleString("en")],
          ["Errors", `${failedRequests(t).toLocaleString("en")} (${pct(errorRate)})`],
          ["Rate limited (429)", t.limited.toLocaleString("en")],
          ["Latency p50 (estimate)", words.p50],
          ["Latency p95 (estimate)", words.p95],
          ["Tokens", t.tokens.toLocaleString("en")],
          ["Est. cost (USD)", usd(report.models_total.cost_usd)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-xl border border-slate-300 p-3 dark:border-slate-700">
            <dt className="text-sm text-slate-700 dark:text-slate-300">{label}</dt>
            <dd className="text-xl font-semibold" data-testid={`total-${label}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>

      {quota && quota.length > 0 && (
        <Section id="quota-now" title="Left today (live)">
          <ul className="mt-2 space-y-2">
            {quota.map((q) => (
              <li key={q.id}>
                <div className="flex flex-wrap justify-between gap-2 text-sm">
                  <span>
                    {q.name} <code>{q.prefix}…</code>
                  </span>
                  <span>
                    {q.day.remaining.toLocaleString("en")} of {q.day.limit.toLocaleString("en")} left today (resets{" "}
                    {q.day.reset.slice(11, 16)} UTC) · {q.minute.remaining} of {q.minute.limit} left this minute
                  </span>
                </div>
                <progress
                  className="mt-1 h-2 w-full accent-indigo-600"
                  max={q.day.limit}
                  value={q.day.remaining}
                  aria-label={`${q.name}: ${q.day.remaining} requests left today`}
                />
              </li>
            ))}
          </ul>
        </Section>
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <Chart title="Requests per day, by status" summary={words.breakdown}>
          <BarChart accessibilityLayer={false} data={report.daily.map((d) => ({ ...d, day: d.day.slice(5) }))}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
            <XAxis dataKey="day" {...axis} />
            <YAxis allowDecimals={false} {...axis} />
            <Tooltip />
            <Legend />
            {statusBars("s")}
          </BarChart>
        </Chart>
        <Chart
          title="Latency per day (p50 and p95, estimated)"
          summary={`Estimated over 30 days: p50 ${words.p50}, p95 ${words.p95}.`}
        >
          <LineChart accessibilityLayer={false} data={report.daily.map((d) => ({ ...d, day: d.day.slice(5) }))}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
            <XAxis dataKey="day" {...axis} />
            <YAxis unit=" ms" {...axis} />
            <Tooltip />
            <Legend />
            <Line dataKey="p50_ms" name="p50" stroke={COLORS.p50} connectNulls dot={{ r: 3 }} />
            <Line dataKey="p95_ms" name="p95" stroke={COLORS.p95} connectNulls dot={{ r: 3 }} />
          </LineChart>
        </Chart>
        <Chart
          title="Requests by area"
          summary={report.areas.map((a) => `${a.area}: ${a.requests}`).join(", ") || "No requests yet."}
        >
          <BarChart accessibilityLayer={false} data={report.areas} layout="vertical">
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
            <XAxis type="number" allowDecimals={false} {...axis} />
            <YAxis type="category" dataKey="area" width={90} {...axis} />
            <Tooltip />
            <Legend />
            {statusBars("a")}
          </BarChart>
        </Chart>
        <Chart
          title="Tokens by provider"
          summary={
            report.providers
              .map((p) => `${p.provider}: ${p.prompt_tokens} prompt, ${p.completion_tokens} completion`)
              .join("; ") || "No language-model calls yet."
          }
        >
          <BarChart accessibilityLayer={false} data={report.providers}>
            <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.3} />
            <XAxis dataKey="provider" {...axis} />
            <YAxis allowDecimals={false} {...axis} />
            <Tooltip />
            <Legend />
            <Bar dataKey="prompt_tokens" name="prompt" stackId="t" fill={COLORS.prompt} />
            <Bar dataKey="completion_tokens" name="completion" stackId="t" fill={COLORS.completion} />
          </BarChart>
        </Chart>
      </div>

      <Section id="by-endpoint" title="By endpoint (30 days)">
        <DataTable
          margin="mt-2"
          label="Requests by endpoint"
          headers={["Endpoint", "Area", "Requests", "2xx/3xx", "4xx (not 429)", "429", "5xx", "Tokens"]}
        >
          {report.routes.map((r) => (
            <tr key={r.route} className="border-t border-slate-200 dark:border-slate-800">
              <td className="px-3 py-2">
                <code>{r.route}</code>
              </td>
              <td className="px-3 py-2">{r.area}</td>
              <td className="px-3 py-2">{r.requests.toLocaleString("en")}</td>
              <td className="px-3 py-2">{r.ok.toLocaleString("en")}</td>
              <td className="px-3 py-2">{r.client.toLocaleString("en")}</td>
              <td className="px-3 py-2">{r.limited.toLocaleString("en")}</td>
              <td className="px-3 py-2">{r.server.toLocaleString("en")}</td>
              <td className="px-3 py-2">{r.tokens.toLocaleString("en")}</td>
            </tr>
          ))}
          <tr className="border-t-2 border-slate-400 font-semibold dark:border-slate-600" data-testid="endpoint-total">
            <th scope="row" className="px-3 py-2 text-left" colSpan={2}>
              Total
            </th>
            <td className="px-3 py-2">{t.requests.toLocaleString("en")}</td>
            <td className="px-3 py-2">{t.ok.toLocaleString("en")}</td>
            <td className="px-3 py-2">{t.client.toLocaleString("en")}</td>
            <td className="px-3 py-2">{t.limited.toLocaleString("en")}</td>
            <td className="px-3 py-2">{t.server.toLocaleString("en")}</td>
            <td className="px-3 py-2">{t.tokens.toLocaleString("en")}</td>
          </tr>
        </DataTable>
      </Section>

      <Section id="by-model" title="By model (30 days)">
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Cost is an estimate: the tokens each provider reported, at the price table&apos;s rate for the model (— where
          the model has no price, such as a local runner).
        </p>
        <DataTable
          margin="mt-2"
          label="Calls, tokens and estimated cost by model"
          headers={["Provider", "Model", "Calls", "Prompt tokens", "Completion tokens", "Est. cost (USD)"]}
        >
          {report.models.map((m) => (
            <tr key={`${m.provider}/${m.model}`} className="border-t border-slate-200 dark:border-slate-800">
              <td className="px-3 py-2">{m.provider}</td>
              <td className="px-3 py-2">{m.model ? <code>{m.model}</code> : "(not named)"}</td>
              <td className="px-3 py-2">{m.requests.toLocaleString("en")}</td>
              <td className="px-3 py-2">{m.prompt_tokens.toLocaleString("en")}</td>
              <td className="px-3 py-2">{m.completion_tokens.toLocaleString("en")}</td>
              <td className="px-3 py-2">{usd(m.cost_usd)}</td>
            </tr>
          ))}
          <tr className="border-t-2 border-slate-400 font-semibold dark:border-slate-600" data-testid="model-total">
            <th scope="row" className="px-3 py-2 text-left" colSpan={2}>
              Total
            </th>
            <td className="px-3 py-2">{report.models_total.requests.toLocaleString("en")}</td>
            <td className="px-3 py-2">{report.models_total.prompt_tokens.toLocaleString("en")}</td>
            <td className="px-3 py-2">{report.models_total.completion_tokens.toLocaleString("en")}</td>
            <td className="px-3 py-2">{usd(report.models_total.cost_usd)}</td>
          </tr>
        </DataTable>
      </Section>

      {cacheSummary(report.cache) && (
        <Section id="response-cache" title="Response cache (30 days)">
          <p className="mt-2" data-testid="cache-summary">
            {cacheSummary(report.cache)}
          </p>
        </Section>
      )}

      {showKeys && (
        <Section id="top-keys" title="Keys by requests (30 days)">
          <DataTable
            margin="mt-2"
            label="Keys by requests"
            headers={["Key", "Owner", "Requests", "4xx (not 429)", "5xx", "429", "Error rate"]}
          >
            {report.keys.map((k) => (
              <tr key={k.id} className="border-t border-slate-200 dark:border-slate-800">
                <td className="px-3 py-2">
                  {k.name} <code>{k.prefix}…</code>
                </td>
                <td className="px-3 py-2">{k.owner ?? "—"}</td>
                <td className="px-3 py-2">{k.requests.toLocaleString("en")}</td>
                <td className="px-3 py-2">{k.client}</td>
                <td className="px-3 py-2">{k.server}</td>
                <td className="px-3 py-2">{k.limited}</td>
                <td className="px-3 py-2">{pct(k.error_rate)}</td>
              </tr>
            ))}
            {report.keys.length === 0 && (
              <tr>
                <td colSpan={7} className="px-3 py-2">
                  No requests in the last 30 days.
                </td>
              </tr>
            )}
          </DataTable>
        </Section>
      )}
    </>
  );
}
