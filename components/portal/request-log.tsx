import Link from "next/link";
import type { ReactNode } from "react";
import type { GuardrailDecision } from "@/lib/guardrails/decision.ts";
import { traceLink } from "@/lib/observability/trace-link.ts";
import { formatBytes, formatUsd, formatUtcSeconds, shortRequestId } from "@/lib/portal/pages/format.ts";
import { cacheText } from "@/lib/portal/usage/cache-text.ts";
import {
  formValues,
  LOG_AREAS,
  logHref,
  type LogKey,
  type LogRow,
  type ParsedLogParams,
  type RequestLogView,
} from "@/lib/portal/usage/request-log.ts";
import { statusClassOf, type StatusClass } from "@/lib/usage/request-log.ts";
import { DataTable } from "./data-table";

/** The status filter's choices, named as the usage dashboards' legend names them. */
const STATUS_OPTIONS: ReadonlyArray<[StatusClass, string]> = [
  ["2xx", "2xx/3xx"],
  ["4xx", "4xx (not 429)"],
  ["429", "429"],
  ["5xx", "5xx"],
];

const STATUS_STYLE: Record<StatusClass, string> = {
  "2xx": "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  "4xx": "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  "429": "bg-violet-100 text-violet-900 dark:bg-violet-900 dark:text-violet-100",
  "5xx": "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
};

const field =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const link = "text-indigo-700 underline dark:text-indigo-300";

export const keyLabel = (k: LogKey | null, keyId: string) =>
  k ? `${k.name} (${k.prefix}…)${k.kind === "console" ? " console" : ""}` : keyId;

/** The detail page of a request id under `base` (the log's path). */
export const detailHref = (base: string, requestId: string) => `${base}/${encodeURIComponent(requestId)}`;

/** A labelled control; the label names only its own words (a wrapping label would take in a select's options). */
function Field({ id, label, children, wide }: { id: string; label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "sm:col-span-2 lg:col-span-3" : undefined}>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The log's search: a plain GET form, so it works before (or without) any script, and its URL can be shared. */
export function RequestFilters({
  action,
  keys,
  values,
  showOwner,
}: {
  action: string;
  keys: LogKey[];
  values: Record<"id" | "key" | "status" | "area" | "tag" | "from" | "to", string>;
  showOwner: boolean;
}) {
  return (
    <form
      method="get"
      action={action}
      role="search"
      aria-label="Search requests"
      className="mt-6 grid gap-3 rounded-xl border border-slate-300 p-4 sm:grid-cols-2 lg:grid-cols-3 dark:border-slate-700"
    >
      <Field id="log-id" label="Request id" wide>
        <input
          type="search"
          id="log-id"
          name="id"
          defaultValue={values.id}
          placeholder="the X-Request-Id header of a response"
          autoComplete="off"
          spellCheck={false}
          className={`${field} font-mono`}
        />
      </Field>
      <Field id="log-key" label="Key">
        <select id="log-key" name="key" defaultValue={values.key} className={field}>
          <option value="">All keys</option>
          {keys.map((k) => (
            <option key={k.id} value={k.id}>
              {keyLabel(k, k.id)}
              {showOwner ? `, ${k.email ?? "no owner"}` : ""}
            </option>
          ))}
        </select>
      </Field>
      <Field id="log-status" label="Status">
        <select id="log-status" name="status" defaultValue={values.status} className={field}>
          <option value="">Any status</option>
          {STATUS_OPTIONS.map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      <Field id="log-area" label="Area">
        <select id="log-area" name="area" defaultValue={values.area} className={field}>
          <option value="">Any area</option>
          {LOG_AREAS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </Field>
      <Field id="log-tag" label="Tag (name:value)">
        <input
          type="search"
          id="log-tag"
          name="tag"
          defaultValue={values.tag}
          placeholder="feature:search, from x-gateway-metadata"
          autoComplete="off"
          spellCheck={false}
          className={`${field} font-mono`}
        />
      </Field>
      <Field id="log-from" label="From (UTC)">
        <input type="datetime-local" id="log-from" name="from" defaultValue={values.from} className={field} />
      </Field>
      <Field id="log-to" label="To (UTC)">
        <input type="datetime-local" id="log-to" name="to" defaultValue={values.to} className={field} />
      </Field>
      <div className="flex items-end gap-3">
        <button type="submit" className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600">
          Search
        </button>
        <Link href={action} className={link}>
          Clear
        </Link>
      </div>
    </form>
  );
}

export function StatusBadge({ status }: { status: number }) {
  return (
    <span className={`rounded px-1.5 py-0.5 font-mono font-medium ${STATUS_STYLE[statusClassOf(status)]}`}>
      {status}
    </span>
  );
}

function tokens(r: Pick<LogRow, "promptTokens" | "completionTokens">): string {
  if (r.promptTokens === null && r.completionTokens === null) return "—";
  return `${(r.promptTokens ?? 0).toLocaleString("en")} + ${(r.completionTokens ?? 0).toLocaleString("en")}`;
}

const cell = "px-2 py-2 align-top";

/**
 * Requests, newest first, one row each. What identifies a request comes first (time, id, status, route),
 * so a phone shows it before the table scrolls; the request id opens the detail page with every field.
 */
export function RequestTable({ rows, base, showOwner }: { rows: LogRow[]; base: string; showOwner: boolean }) {
  return (
    <DataTable
      margin="mt-3"
      headers={[
        "Time (UTC)",
        "Request id",
        "Status",
        "Method",
        "Route",
        "Latency",
        "Bytes in / out",
        "Provider / model",
        "Tokens (in + out)",
        "Est. cost (USD)",
        "Key",
        ...(showOwner ? ["Owner"] : []),
      ]}
    >
      {rows.map((r) => {
        const [day, time] = formatUtcSeconds(r.at).split(" ");
        return (
          <tr
            key={r.id ?? `pending-${r.requestId}-${r.at.getTime()}`}
            className="border-t border-slate-200 dark:border-slate-800"
            data-testid={`request-${r.requestId}`}
          >
            <td className={`${cell} whitespace-nowrap`}>
              <span className="block">{day}</span>
              {time}
              {r.id === null && <span className="block text-xs text-slate-700 dark:text-slate-300">being written</span>}
            </td>
            <td className={`${cell} whitespace-nowrap`}>
              <Link
                href={detailHref(base, r.requestId)}
                aria-label={r.requestId}
                title={r.requestId}
                className={`${link} font-mono`}
              >
                {shortRequestId(r.requestId)}
              </Link>
            </td>
            <td className={cell}>
              <StatusBadge status={r.status} />
            </td>
            <td className={cell}>{r.method}</td>
            <td className={`${cell} whitespace-nowrap`}>
              <code>{r.route}</code>
            </td>
            <td className={`${cell} whitespace-nowrap`}>{r.latencyMs.toLocaleString("en")} ms</td>
            <td className={`${cell} whitespace-nowrap`}>
              {formatBytes(r.bytesIn)} / {formatBytes(r.bytesOut)}
            </td>
            <td className={`${cell} whitespace-nowrap`}>
              {r.provider ?? "—"}
              {r.model && <span className="block">{r.model}</span>}
            </td>
            <td className={`${cell} whitespace-nowrap`}>{tokens(r)}</td>
            <td className={cell}>{formatUsd(r.costUsd)}</td>
            <td className={`${cell} whitespace-nowrap`}>
              <span className="block">{r.key?.name ?? r.keyId}</span>
              {r.key && (
                <span className="text-xs text-slate-700 dark:text-slate-300">
                  <code>{r.key.prefix}…</code>
                  {r.key.kind === "console" ? " console" : ""}
                </span>
              )}
            </td>
            {showOwner && <td className={cell}>{r.key?.email ?? "—"}</td>}
          </tr>
        );
      })}
    </DataTable>
  );
}

/** A request's trace id: a link to the operator's trace viewer when TRACE_URL_TEMPLATE names one, else text. */
function Trace({ traceId, template }: { traceId: string | null; template: string | undefined }) {
  if (traceId === null) return "— (not traced)";
  const href = traceLink(template, traceId);
  const id = <code>{traceId}</code>;
  return href ? (
    <a href={href} className={link} target="_blank" rel="noopener noreferrer">
      {id}
    </a>
  ) : (
    id
  );
}

/** Every recorded field of one request; `traceUrlTemplate` (TRACE_URL_TEMPLATE) makes its trace id a link. */
export function RequestFields({
  row,
  showOwner,
  traceUrlTemplate,
}: {
  row: LogRow;
  showOwner: boolean;
  traceUrlTemplate?: string;
}) {
  const fields: Array<[string, ReactNode]> = [
    ["Request id", <code key="id">{row.requestId}</code>],
    ["Trace", <Trace key="trace" traceId={row.traceId} template={traceUrlTemplate} />],
    ["Time", `${row.at.toISOString().replace("T", " ").replace("Z", "")} UTC`],
    ["Method", row.method],
    ["Route", <code key="route">{row.route}</code>],
    ["Area", row.area],
    ["Status", <StatusBadge key="status" status={row.status} />],
    ...(row.error ? [["Error", <ErrorText key="error" text={row.error} />] as [string, ReactNode]] : []),
    ["Latency", `${row.latencyMs.toLocaleString("en")} ms`],
    ["Bytes in", `${row.bytesIn.toLocaleString("en")} B`],
    ["Bytes out", `${row.bytesOut.toLocaleString("en")} B`],
    ["Provider", row.provider ?? "—"],
    ["Model", row.model ?? "—"],
    ["Prompt tokens", row.promptTokens?.toLocaleString("en") ?? "—"],
    ["Completion tokens", row.completionTokens?.toLocaleString("en") ?? "—"],
    ["Estimated cost (USD, list prices)", formatUsd(row.costUsd)],
    ...(row.cache ? [["Response cache", cacheText(row.cache)] as [string, ReactNode]] : []),
    ["Key", keyLabel(row.key, row.keyId)],
    ["Key id", <code key="key">{row.keyId}</code>],
    ...(showOwner ? [["Owner", row.key?.email ?? "—"] as [string, ReactNode]] : []),
    ["User agent", row.userAgent ?? "—"],
    ...(row.tags ? [["Tags", <Tags key="tags" tags={row.tags} />] as [string, ReactNode]] : []),
    ...(row.guardrails ? [["Guardrails", guardrailText(row.guardrails)] as [string, ReactNode]] : []),
    ["Stored", row.id === null ? "not yet: recorded by this server, written within seconds" : `row ${row.id}`],
  ];
  return (
    <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 rounded-xl border border-slate-300 p-4 sm:grid-cols-[max-content_1fr] dark:border-slate-700">
      {fields.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="font-medium text-slate-700 dark:text-slate-300">{name}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The message the caller was answered with, as it was given (text, never markup). */
function ErrorText({ text }: { text: string }) {
  return <span className="whitespace-pre-wrap text-red-800 [overflow-wrap:anywhere] dark:text-red-300">{text}</span>;
}

/**
 * What the guardrail policy did, in words: "redacted 2 emails and 1 phone in the prompt (policy
 * pii-redact)", "blocked the call for a likely prompt injection (score 0.93: override, role) in the prompt",
 * "blocked the call for 1 email in the answer", "blocked an answer that does not match the policy's JSON schema (/age type)".
 */
export function guardrailText(decisions: readonly GuardrailDecision[]): string {
  const done = { redact: "redacted", block: "blocked the call for", flag: "flagged" } as const;
  return decisions
    .map((d) => {
      const found = foundText(d);
      if (d.stage === "tool")
        return `${d.action === "block" ? "withheld from the agent" : "flagged"} a tool result with ${found} (policy ${d.policy})`;
      if (d.check === "json_schema")
        return `${d.action === "block" ? "blocked" : "flagged"} an answer ${found} (policy ${d.policy})`;
      return `${done[d.action]} ${found} in the ${d.stage === "answer" ? "answer" : "prompt"} (policy ${d.policy})`;
    })
    .join("; ");
}

const counted = (n: number | undefined, what: string) => (n ? `${n} ${what}${n === 1 ? "" : "s"}` : undefined);

/** What a decision found, in words: counts by kind, never a value. */
function foundText(d: GuardrailDecision): string {
  switch (d.check) {
    case "injection":
      return `a likely prompt injection (score ${d.score ?? "?"}: ${Object.keys(d.found).join(", ")})`;
    case "length":
      return `a prompt of ${d.found.chars ?? "?"} characters, over its limit,`;
    case "words":
      return [
        counted(d.found.term, "listed term"),
        counted(d.found.pattern, "pattern match"),
        counted(d.found.profanity, "profane word"),
      ]
        .filter(Boolean)
        .join(" and ");
    case "moderation":
      if (d.found.error) return "a moderation check that did not answer,";
      return `content the moderation check flagged (${Object.keys(d.found).join(", ")})`;
    case "webhook":
      return d.found.error ? "a webhook check that did not answer," : "content the webhook refused";
    case "json_schema":
      return `that does not match the policy's JSON schema (${d.reason ?? "?"})`;
    default:
      return Object.entries(d.found)
        .map(([kind, n]) => counted(n, kind.replaceAll("_", " ")))
        .join(" and ");
  }
}

/** The caller's tags, each a link to the log filtered by it. */
function Tags({ tags }: { tags: Record<string, string> }) {
  return (
    <ul className="flex flex-wrap gap-2">
      {Object.entries(tags).map(([name, value]) => (
        <li key={name}>
          <code className="rounded bg-slate-100 px-1.5 py-0.5 dark:bg-slate-800">
            {name}: {value}
          </code>
        </li>
      ))}
    </ul>
  );
}

/** Links to the newest page and the next older one, keeping the filters. */
export function Pager({ newest, older }: { newest: string | null; older: string | null }) {
  if (!newest && !older) return null;
  return (
    <nav aria-label="Pages of requests" className="mt-4 flex gap-4">
      {newest && (
        <Link href={newest} className={link}>
          ← Newest
        </Link>
      )}
      {older && (
        <Link href={older} className={link}>
          Older requests →
        </Link>
      )}
    </nav>
  );
}

/** What was wrong with the query string, instead of a result. */
export function QueryErrors({ errors }: { errors: string[] }) {
  return (
    <div role="alert" className="mt-4 rounded-lg border border-red-600 p-3 text-red-800 dark:text-red-300">
      <p className="font-medium">The search could not be run:</p>
      <ul className="mt-1 list-disc pl-6">
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The log's page body for `base` (the user's /usage/requests, the operator's /admin/requests): the search,
 * then the page of requests with its pager, or what was wrong with the query.
 */
export function RequestLog({
  base,
  parsed,
  view,
  keys,
  showOwner,
}: {
  base: string;
  parsed: ParsedLogParams;
  view: RequestLogView | null;
  keys: LogKey[];
  showOwner: boolean;
}) {
  const params = parsed.ok ? parsed.params : null;
  const empty = { id: "", key: "", status: "", area: "", tag: "", from: "", to: "" };
  return (
    <>
      <RequestFilters action={base} keys={keys} values={params ? formValues(params) : empty} showOwner={showOwner} />
      {!parsed.ok && <QueryErrors errors={parsed.errors} />}
      {params && view && (
        <section aria-labelledby="requests" className="mt-8">
          <h2 id="requests" className="text-xl font-semibold">
            {params.id ? (
              <>
                Requests with id <code className="break-all">{params.id}</code>
              </>
            ) : (
              "Requests, newest first"
            )}
          </h2>
          <a
            href={logHref(`${base}/export`, params)}
            download
            className="mt-2 inline-block text-sm font-medium text-indigo-700 underline dark:text-indigo-300"
          >
            Download these requests as CSV
          </a>
          {view.rows.length === 0 ? (
            <p className="mt-3 text-slate-700 dark:text-slate-300" role="status">
              {params.before ? "No older requests." : "No requests match."}
            </p>
          ) : (
            <RequestTable rows={view.rows} base={base} showOwner={showOwner} />
          )}
          <Pager
            newest={params.before ? logHref(base, params) : null}
            older={view.next ? logHref(base, params, { before: view.next }) : null}
          />
        </section>
      )}
    </>
  );
}
