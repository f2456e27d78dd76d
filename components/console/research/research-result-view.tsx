import { Markdown } from "../markdown";
import {
  formatCost,
  formatMs,
  formatStarted,
  safeHref,
  TIMING_ROWS,
  type AgentResult,
  type ResearchResult,
  type Source,
} from "./research-result";

const card = "rounded-xl border border-slate-300 p-4 dark:border-slate-700";
const heading = "text-lg font-semibold";

/** A source: a link when its URL is http(s), plain text otherwise. Third-party, so no referrer and no follow. */
function SourceItem({ source }: { source: Source }) {
  const href = safeHref(source.url);
  const name = source.title || source.url || "untitled";
  return (
    <li className="[overflow-wrap:anywhere]">
      {href ? (
        <a
          href={href}
          target="_blank"
          rel="noopener noreferrer nofollow"
          className="text-indigo-700 underline dark:text-indigo-300"
        >
          {name}
        </a>
      ) : (
        name
      )}
      {source.source && <span className="text-slate-600 dark:text-slate-400"> ({source.source})</span>}
    </li>
  );
}

function Sources({ sources, label }: { sources: Source[]; label: string }) {
  if (sources.length === 0) return null;
  return (
    <ul aria-label={label} className="mt-2 list-disc pl-5 text-sm">
      {sources.map((s, i) => (
        <SourceItem key={`${s.url ?? s.title}-${i}`} source={s} />
      ))}
    </ul>
  );
}

function AgentOutput({ agent }: { agent: AgentResult }) {
  const what = agent.subtask ?? agent.type;
  return (
    <details className="min-w-0 rounded-lg border border-slate-200 p-3 [overflow-wrap:anywhere] dark:border-slate-700">
      <summary className="cursor-pointer">
        <span className="font-medium">{agent.id}</span> · {agent.status}
        {what && <> · {what}</>}
      </summary>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
        {[agent.model, agent.tier, formatMs(agent.duration_ms)].filter(Boolean).join(" · ")}
        {agent.tool_calls.length > 0 && ` · tools: ${agent.tool_calls.map((t) => t.tool).join(", ")}`}
      </p>
      {agent.error && (
        <p className="mt-2 text-red-800 [overflow-wrap:anywhere] dark:text-red-200">Error: {agent.error}</p>
      )}
      {agent.output && <Markdown text={agent.output} className="mt-2 text-sm" />}
      <Sources sources={agent.sources} label={`Sources of ${agent.id}`} />
    </details>
  );
}

function UsageTable({ usage }: { usage: ResearchResult["usage"] }) {
  const tiers = Object.entries(usage.by_tier);
  return (
    <section aria-labelledby="usage-heading" className={card}>
      <h3 id="usage-heading" className={heading}>
        Usage
      </h3>
      <p className="mt-1 text-sm" data-testid="research-usage">
        {usage.total_tokens.toLocaleString("en")} tokens ({usage.prompt_tokens.toLocaleString("en")} prompt,{" "}
        {usage.completion_tokens.toLocaleString("en")} completion) · estimated cost{" "}
        {formatCost(usage.estimated_cost_usd)}
      </p>
      {tiers.length > 0 && (
        <table className="mt-2 text-sm">
          <thead>
            <tr>
              <th className="pr-4 text-left">Tier</th>
              <th className="pr-4 text-right">Calls</th>
              <th className="pr-4 text-right">Prompt tokens</th>
              <th className="text-right">Completion tokens</th>
            </tr>
          </thead>
          <tbody>
            {tiers.map(([tier, u]) => (
              <tr key={tier}>
                <th scope="row" className="pr-4 text-left font-normal">
                  {tier}
                </th>
                <td className="pr-4 text-right">{u.calls}</td>
                <td className="pr-4 text-right">{u.prompt_tokens.toLocaleString("en")}</td>
                <td className="text-right">{u.completion_tokens.toLocaleString("en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Timings({ timings }: { timings: ResearchResult["timings"] }) {
  const rows = TIMING_ROWS.filter(([key]) => typeof timings[key] === "number");
  return (
    <section aria-labelledby="timings-heading" className={card}>
      <h3 id="timings-heading" className={heading}>
        Timings
      </h3>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 text-sm">
        {rows.map(([key, label]) => (
          <div key={key} className="contents">
            <dt>{label}</dt>
            <dd>{formatMs(timings[key])}</dd>
          </div>
        ))}
        {typeof timings.started_at === "string" && (
          <div className="contents">
            <dt>Started</dt>
            <dd>{formatStarted(timings.started_at)}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/** The finished task: the summary or answer first, then how it was reached. */
export function ResearchResultView({ result }: { result: ResearchResult }) {
  const cascade = result.kind === "dream-cascade" ? result : null;
  const swarm = result.kind === "dream-swarm" ? result : null;
  return (
    <section aria-labelledby="result-heading" className="flex min-w-0 flex-col gap-4">
      <h2 id="result-heading" className="text-2xl font-semibold [overflow-wrap:anywhere]">
        {cascade ? cascade.title || "Result" : `Answer: ${swarm?.query}`}
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {[result.provider, result.budget_tier && `${result.budget_tier} budget`].filter(Boolean).join(" · ")}
        {cascade &&
          Object.keys(cascade.models).length > 0 &&
          ` · models: ${Object.entries(cascade.models)
            .map(([role, model]) => `${role} ${model}`)
            .join(", ")}`}
      </p>
      <section aria-labelledby="summary-heading" className={card}>
        <h3 id="summary-heading" className={heading}>
          {cascade ? "Executive summary" : "Answer"}
        </h3>
        <Markdown
          text={(cascade ? cascade.executive_summary : swarm?.answer) ?? ""}
          className="mt-2"
          testId="research-summary"
        />
      </section>
      {result.failures.length > 0 && (
        <section aria-labelledby="failures-heading" className={card}>
          <h3 id="failures-heading" className={heading}>
            Failures
          </h3>
          <ul className="mt-2 list-disc pl-5 text-sm">
            {result.failures.map((f) => (
              <li key={f.agent} className="[overflow-wrap:anywhere]">
                {f.agent}: {f.error}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="sources-heading" className={card}>
        <h3 id="sources-heading" className={heading}>
          Sources ({result.sources.length})
        </h3>
        <Sources sources={result.sources} label="Sources" />
      </section>
      {cascade && cascade.syntheses.length > 0 && (
        <section aria-labelledby="syntheses-heading" className="flex flex-col gap-2">
          <h3 id="syntheses-heading" className={heading}>
            Syntheses
          </h3>
          {cascade.syntheses.map((s) => (
            <details
              key={s.id}
              className="min-w-0 rounded-lg border border-slate-200 p-3 [overflow-wrap:anywhere] dark:border-slate-700"
            >
              <summary className="cursor-pointer">
                <span className="font-medium">{s.id}</span> · merges {s.agents.join(", ") || "no agents"}
              </summary>
              <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
                {[s.model, s.tier, formatMs(s.duration_ms)].filter(Boolean).join(" · ")}
              </p>
              <Markdown text={s.output} className="mt-2 text-sm" />
            </details>
          ))}
        </section>
      )}
      {result.agents.length > 0 && (
        <section aria-labelledby="agents-heading" className="flex flex-col gap-2">
          <h3 id="agents-heading" className={heading}>
            Agent outputs
          </h3>
          {result.agents.map((a) => (
            <AgentOutput key={a.id} agent={a} />
          ))}
        </section>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <UsageTable usage={result.usage} />
        <Timings timings={result.timings} />
      </div>
    </section>
  );
}
