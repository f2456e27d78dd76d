import Link from "next/link";
import type { KeyGuardrails, NamedPolicy } from "@/lib/portal/keys/guardrail-policy.ts";
import { formatUtcSeconds, shortRequestId } from "@/lib/portal/pages/format.ts";
import type { LogRow } from "@/lib/portal/usage/request-log.ts";
import { detailHref, guardrailText, keyLabel, StatusBadge } from "./request-log";
import { Section } from "./section";

const muted = "text-slate-700 dark:text-slate-300";
const link = "text-indigo-700 underline dark:text-indigo-300";

/** A policy's name and what it does; one the routing file lost is said to refuse the calls it covers. */
function Policy({ policy, note }: { policy: NamedPolicy; note?: string }) {
  return (
    <>
      <strong>{policy.name}</strong>
      {note && <span className={muted}> ({note})</span>}
      {policy.does === null ? (
        <span className={muted}> — no longer in the routing file: its model calls are refused until it is back.</span>
      ) : (
        <span className={muted}> — {policy.does}</span>
      )}
    </>
  );
}

/** The guardrail policy a key's model calls are under, and where it comes from (docs/guardrails.md). */
export function KeyGuardrailsLine({ guardrails }: { guardrails: KeyGuardrails }) {
  return (
    <p className="mt-2 text-sm" data-testid="guardrails">
      <span className={muted}>Guardrails </span>
      {guardrails.source === "key" && <Policy policy={guardrails} note="this key's own" />}
      {guardrails.source === "team" && (
        <>
          from team {guardrails.team}: <Policy policy={guardrails} />
        </>
      )}
      {guardrails.source === "alias" && (
        <>
          none of its own; from the alias a call names:
          {guardrails.aliases.map((a) => (
            <span key={a.alias} className="block">
              <code>{a.alias}</code>: <Policy policy={a} />
            </span>
          ))}
        </>
      )}
      {guardrails.source === "none" && "none: its prompts go to the model unchecked"}
    </p>
  );
}

/**
 * The signed-in owner's latest requests a guardrail policy decided something on, newest first: what
 * fired in words (kinds and counts, never a value), each request linking to its page.
 */
export function RecentGuardrailDecisions({ rows }: { rows: LogRow[] }) {
  return (
    <Section id="guardrail-decisions" className="mt-8" title="Recent guardrail decisions">
      {rows.length === 0 ? (
        <p className={`mt-3 ${muted}`}>No guardrail policy has fired on your keys&apos; requests.</p>
      ) : (
        <ul className="mt-3 space-y-3">
          {rows.map((r) => (
            <li
              key={r.id ?? `pending-${r.requestId}-${r.at.getTime()}`}
              data-testid={`decision-${r.requestId}`}
              className="rounded-xl border border-slate-300 p-3 text-sm break-words dark:border-slate-700"
            >
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <time dateTime={r.at.toISOString()}>{formatUtcSeconds(r.at)}</time>
                <span>{keyLabel(r.key, r.keyId)}</span>
                <code className="[overflow-wrap:anywhere]">
                  {r.method} {r.route}
                </code>
                <StatusBadge status={r.status} />
                <Link
                  href={detailHref("/usage/requests", r.requestId)}
                  aria-label={`Request ${r.requestId}`}
                  title={r.requestId}
                  className={`${link} font-mono`}
                >
                  {shortRequestId(r.requestId)}
                </Link>
              </p>
              <ul className="mt-1 space-y-1">
                {(r.guardrails ?? []).map((d, i) => (
                  <li key={i}>
                    <span className={muted}>
                      {d.stage} · {d.check} · {d.action}:
                    </span>{" "}
                    {guardrailText([d])}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
