import Link from "next/link";
import type { TagReport, UsageReport } from "@/lib/portal/usage/report";
import { usd } from "@/lib/portal/usage/summary";
import { DataTable } from "./data-table";
import { Section } from "./section";

const cell = "px-3 py-2";
const rowClass = "border-t border-slate-200 dark:border-slate-800";
const totalClass = "border-t-2 border-slate-400 font-semibold dark:border-slate-600";
const n = (x: number) => x.toLocaleString("en");
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const linkClass = "text-indigo-700 underline dark:text-indigo-300";

/** The period's requests by endpoint: the rows add up to the total row. */
export function ByEndpoint({ report }: { report: UsageReport }) {
  const t = report.totals;
  return (
    <Section id="by-endpoint" title={`By endpoint (${report.label.toLowerCase()})`}>
      <DataTable
        margin="mt-2"
        label="Requests by endpoint"
        headers={["Endpoint", "Area", "Requests", "2xx/3xx", "4xx (not 429)", "429", "5xx", "Tokens"]}
      >
        {report.routes.map((r) => (
          <tr key={r.route} className={rowClass}>
            <td className={cell}>
              <code>{r.route}</code>
            </td>
            <td className={cell}>{r.area}</td>
            <td className={cell}>{n(r.requests)}</td>
            <td className={cell}>{n(r.ok)}</td>
            <td className={cell}>{n(r.client)}</td>
            <td className={cell}>{n(r.limited)}</td>
            <td className={cell}>{n(r.server)}</td>
            <td className={cell}>{n(r.tokens)}</td>
          </tr>
        ))}
        <tr className={totalClass} data-testid="endpoint-total">
          <th scope="row" className={`${cell} text-left`} colSpan={2}>
            Total
          </th>
          <td className={cell}>{n(t.requests)}</td>
          <td className={cell}>{n(t.ok)}</td>
          <td className={cell}>{n(t.client)}</td>
          <td className={cell}>{n(t.limited)}</td>
          <td className={cell}>{n(t.server)}</td>
          <td className={cell}>{n(t.tokens)}</td>
        </tr>
      </DataTable>
    </Section>
  );
}

/** The period's language-model calls by provider and model, with their estimated cost. */
export function ByModel({ report }: { report: UsageReport }) {
  return (
    <Section id="by-model" title={`By model (${report.label.toLowerCase()})`}>
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
          <tr key={`${m.provider}/${m.model}`} className={rowClass}>
            <td className={cell}>{m.provider}</td>
            <td className={cell}>{m.model ? <code>{m.model}</code> : "(not named)"}</td>
            <td className={cell}>{n(m.requests)}</td>
            <td className={cell}>{n(m.prompt_tokens)}</td>
            <td className={cell}>{n(m.completion_tokens)}</td>
            <td className={cell}>{usd(m.cost_usd)}</td>
          </tr>
        ))}
        <tr className={totalClass} data-testid="model-total">
          <th scope="row" className={`${cell} text-left`} colSpan={2}>
            Total
          </th>
          <td className={cell}>{n(report.models_total.requests)}</td>
          <td className={cell}>{n(report.models_total.prompt_tokens)}</td>
          <td className={cell}>{n(report.models_total.completion_tokens)}</td>
          <td className={cell}>{usd(report.models_total.cost_usd)}</td>
        </tr>
      </DataTable>
    </Section>
  );
}

/** The period's requests, tokens and estimated cost by key (with each key's owner for operators). */
export function ByKey({ report, operator }: { report: UsageReport; operator: boolean }) {
  const t = report.totals;
  return (
    <Section id="by-key" title={`By key (${report.label.toLowerCase()})`}>
      <DataTable
        margin="mt-2"
        label="Requests by key"
        headers={[
          "Key",
          ...(operator ? ["Owner"] : []),
          "Requests",
          "4xx (not 429)",
          "5xx",
          "429",
          "Error rate",
          "Tokens",
          "Est. cost (USD)",
        ]}
      >
        {report.keys.map((k) => (
          <tr key={k.id} className={rowClass}>
            <td className={cell}>
              {k.name} <code>{k.prefix}…</code>
            </td>
            {operator && <td className={cell}>{k.owner ?? "—"}</td>}
            <td className={cell}>{n(k.requests)}</td>
            <td className={cell}>{n(k.client)}</td>
            <td className={cell}>{n(k.server)}</td>
            <td className={cell}>{n(k.limited)}</td>
            <td className={cell}>{pct(k.error_rate)}</td>
            <td className={cell}>{n(k.tokens)}</td>
            <td className={cell}>{usd(k.cost_usd)}</td>
          </tr>
        ))}
        {report.keys.length === 0 ? (
          <tr>
            <td colSpan={operator ? 9 : 8} className={cell}>
              No requests in this period.
            </td>
          </tr>
        ) : (
          <tr className={totalClass} data-testid="key-total">
            <th scope="row" className={`${cell} text-left`} colSpan={operator ? 2 : 1}>
              Total
            </th>
            <td className={cell}>{n(t.requests)}</td>
            <td className={cell}>{n(t.client)}</td>
            <td className={cell}>{n(t.server)}</td>
            <td className={cell}>{n(t.limited)}</td>
            <td className={cell}>{pct(t.requests ? (t.client + t.server + t.limited) / t.requests : 0)}</td>
            <td className={cell}>{n(report.models_total.prompt_tokens + report.models_total.completion_tokens)}</td>
            <td className={cell}>{usd(report.models_total.cost_usd)}</td>
          </tr>
        )}
      </DataTable>
    </Section>
  );
}

/**
 * The period's logged requests by the values of one tag callers sent in x-gateway-metadata, each linked
 * to the request log filtered to its requests.
 */
export function ByTag({ report, tags, logPath }: { report: UsageReport; tags: TagReport; logPath: string }) {
  const title = tags.name ? `By tag “${tags.name}” (${report.label.toLowerCase()})` : "By tag";
  const logOf = (value: string) =>
    `${logPath}?${new URLSearchParams({ tag: `${tags.name}:${value}`, from: report.from, to: report.to })}`;
  return (
    <Section id="by-tag" title={title}>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Tags are what a caller sends in the <code>x-gateway-metadata</code> header, a JSON object such as{" "}
        <code>{`{"user": "u-42", "feature": "search"}`}</code>. They are counted from the request log, which keeps each
        request for the operator&apos;s retention period.
      </p>
      {tags.names.length === 0 ? (
        <p className="mt-3" data-testid="no-tags">
          No request in this period carried a tag.
        </p>
      ) : (
        <DataTable
          margin="mt-2"
          label={`Requests by the tag ${tags.name ?? ""}`}
          headers={["Value", "Requests", "Failed", "Tokens", "Est. cost (USD)"]}
        >
          {tags.rows.map((r) => (
            <tr key={r.value ?? "\u0000rest"} className={rowClass}>
              <td className={cell}>
                {r.value === null ? (
                  "Every other value"
                ) : (
                  <Link href={logOf(r.value)} className={linkClass}>
                    <code>{r.value}</code>
                    <span className="sr-only"> (open its requests)</span>
                  </Link>
                )}
              </td>
              <td className={cell}>{n(r.requests)}</td>
              <td className={cell}>{n(r.failed)}</td>
              <td className={cell}>{n(r.tokens)}</td>
              <td className={cell}>{usd(r.cost_usd)}</td>
            </tr>
          ))}
          {tags.total && (
            <tr className={totalClass} data-testid="tag-total">
              <th scope="row" className={`${cell} text-left`}>
                Total
              </th>
              <td className={cell}>{n(tags.total.requests)}</td>
              <td className={cell}>{n(tags.total.failed)}</td>
              <td className={cell}>{n(tags.total.tokens)}</td>
              <td className={cell}>{usd(tags.total.cost_usd)}</td>
            </tr>
          )}
        </DataTable>
      )}
    </Section>
  );
}
