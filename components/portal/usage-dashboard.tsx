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
import { DEFAULT_PERIOD, PERIOD_PRESETS, type PeriodPreset } from "@/lib/portal/usage/period";
import type { QuotaNow, TagReport, UsageReport } from "@/lib/portal/usage/report";
import { cacheSummary, describeTotals, failedRequests, STATUS_CLASSES, usd } from "@/lib/portal/usage/summary";
import { ByEndpoint, ByKey, ByModel, ByTag } from "./usage-breakdowns";
import { Section } from "./section";

type Payload = { report: UsageReport; tags: TagReport; quota?: QuotaNow[] };
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

type Group = "endpoint" | "model" | "key" | "tag";
const GROUPS: Array<[Group, string]> = [
  ["endpoint", "Endpoint"],
  ["model", "Model"],
  ["key", "Key"],
  ["tag", "Tag"],
];

const linkClass = "text-indigo-700 underline dark:text-indigo-300";
const fieldClass =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

/**
 * Usage charts for `endpoint` (the user's own, or every key for operators) over a chosen period, grouped
 * by endpoint, model, key or a caller's tag; refreshed every 10 s. `logPath` is the request log the tag
 * rows open, filtered to their requests; `exportPath` gives the same numbers as CSV.
 */
export function UsageDashboard({
  endpoint,
  keys,
  operator,
  logPath,
  exportPath,
}: {
  endpoint: string;
  keys: KeyOption[];
  operator: boolean;
  logPath: string;
  exportPath: string;
}) {
  const [keyId, setKeyId] = useState("");
  const [range, setRange] = useState<PeriodPreset | "custom">(DEFAULT_PERIOD);
  const [custom, setCustom] = useState<{ from: string; to: string } | null>(null);
  const [group, setGroup] = useState<Group>("endpoint");
  const [tag, setTag] = useState("");
  const query = new URLSearchParams();
  if (range !== "custom") query.set("range", range);
  else if (custom) {
    query.set("from", custom.from);
    query.set("to", custom.to);
  }
  if (keyId) query.set("key", keyId);
  if (group === "tag" && tag) query.set("tag", tag);
  // A custom period is asked for once both its days are chosen; until then the last report stays.
  const url = range === "custom" && !custom ? null : `${endpoint}?${query}`;
  const { data, error, isLoading } = useSWR<Payload, FetchError>(url, fetchJson, {
    refreshInterval: 10_000,
    keepPreviousData: true,
  });
  const tagNames = data?.tags.names ?? [];
  const chosenTag = tag || tagNames[0] || "";
  if (group === "tag" && !tag && chosenTag) setTag(chosenTag);

  return (
    <div className="mt-6 space-y-6">
      <form
        aria-label="What to show"
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(e) => e.preventDefault()}
      >
        <label className="block">
          <span className="font-medium">Period</span>
          <select value={range} onChange={(e) => setRange(e.target.value as typeof range)} className={fieldClass}>
            {Object.entries(PERIOD_PRESETS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
            <option value="custom">Custom days…</option>
          </select>
        </label>
        {keys.length > 1 && (
          <label className="block">
            <span className="font-medium">Keys</span>
            <select value={keyId} onChange={(e) => setKeyId(e.target.value)} className={fieldClass}>
              <option value="">All keys</option>
              {keys.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="block">
          <span className="font-medium">Group by</span>
          <select value={group} onChange={(e) => setGroup(e.target.value as Group)} className={fieldClass}>
            {GROUPS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {group === "tag" && tagNames.length > 0 && (
          <label className="block">
            <span className="font-medium">Tag</span>
            <select value={chosenTag} onChange={(e) => setTag(e.target.value)} className={fieldClass}>
              {tagNames.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
      </form>
      {range === "custom" && <CustomDays initial={custom ?? data?.report} onChoose={setCustom} />}
      {url && (
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <a href={`${exportPath}?${query}&group=${group}`} download className={linkClass}>
            Download the {GROUPS.find(([g]) => g === group)![1].toLowerCase()} table as CSV
          </a>
          <a href={`${exportPath}?${query}&group=day`} download className={linkClass}>
            Download the daily totals as CSV
          </a>
        </p>
      )}
      {error && (
        <p role="alert" className="rounded-lg border border-red-600 p-3 text-red-800 dark:text-red-300">
          Could not load usage: {error.message}
          {error.status === 429 && error.retryAfter ? ` Try again in ${error.retryAfter} s.` : ""}
        </p>
      )}
      {isLoading && !data && <p role="status">Loading usage…</p>}
      {data && <Report data={data} group={group} operator={operator} logPath={logPath} />}
    </div>
  );
}

/** The two days of a custom period (UTC, both counted), asked for when shown. */
function CustomDays({
  initial,
  onChoose,
}: {
  initial: { from: string; to: string } | undefined;
  onChoose: (days: { from: string; to: string }) => void;
}) {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <form
      aria-label="Custom period"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        onChoose({ from: String(form.get("from")), to: String(form.get("to")) });
      }}
    >
      <label className="block">
        <span className="font-medium">From</span>
        <input type="date" name="from" required max={today} defaultValue={initial?.from} className={fieldClass} />
      </label>
      <label className="block">
        <span className="font-medium">To</span>
        <input type="date" name="to" required max={today} defaultValue={initial?.to} className={fieldClass} />
      </label>
      <button
        type="submit"
        className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        Show these days
      </button>
      <p className="w-full text-sm text-slate-700 dark:text-slate-300">
        UTC days, both included, at most a year apart.
      </p>
    </form>
  );
}

function Report({
  data,
  group,
  operator,
  logPath,
}: {
  data: Payload;
  group: Group;
  operator: boolean;
  logPath: string;
}) {
  const { report, quota } = data;
  const t = report.totals;
  const errorRate = t.requests ? failedRequests(t) / t.requests : 0;
  const words = describeTotals(report);
  return (
    <>
      <p data-testid="usage-period">
        <span className="font-semibold">{report.label}</span>: {report.from} to {report.to} (UTC days, both included)
      </p>
      <dl
        className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7"
        aria-label={`Totals from ${report.from} to ${report.to} (UTC)`}
      >
        {[
          ["Requests", t.requests.toLocaleString("en")],
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

      {group === "endpoint" && <ByEndpoint report={report} />}
      {group === "model" && <ByModel report={report} />}
      {group === "key" && <ByKey report={report} operator={operator} />}
      {group === "tag" && <ByTag report={report} tags={data.tags} logPath={logPath} />}

      {cacheSummary(report.cache) && (
        <Section id="response-cache" title={`Response cache (${report.label.toLowerCase()})`}>
          <p className="mt-2" data-testid="cache-summary">
            {cacheSummary(report.cache)}
          </p>
        </Section>
      )}
    </>
  );
}
