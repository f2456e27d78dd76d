import type { Metadata } from "next";
import {
  AdminCachePolicyForm,
  AdminCreateKeyForm,
  AdminGuardrailsForm,
  AdminKeyTermsForm,
  AdminLimitsForm,
  AdminModelRulesForm,
  AdminRevokeForm,
} from "@/components/portal/admin-forms";
import { AdminShell } from "@/components/portal/admin-shell";
import { KeyGuardrailsLine } from "@/components/portal/guardrail-decisions";
import { ListProblem, ListSearch, Pager } from "@/components/portal/list-controls";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { Section } from "@/components/portal/section";
import { getGateway } from "@/lib/instance.ts";
import { keyListParams, keysPage, parseListParams } from "@/lib/portal/admin/lists.ts";
import { enforcedTerms, isOperatorScope, SCOPE_AREAS } from "@/lib/gateway/keys/record.ts";
import { lastDay, todayUtc } from "@/lib/portal/keys/expiry-day.ts";
import { keyGuardrails } from "@/lib/portal/keys/guardrail-policy.ts";
import { areasText, cachePolicyText, limitSourceText, modelRulesText } from "@/lib/portal/keys/enforced-limits.ts";
import { formatUtc, keyState } from "@/lib/portal/pages/format.ts";
import { requireOperator } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Keys · Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATE_CHOICES: ReadonlyArray<[string, string]> = [
  ["working", "Working"],
  ["revoked", "Revoked or expired"],
  ["all", "All"],
];

const WINDOWS = [
  ["day", "a day"],
  ["minute", "a minute"],
  ["concurrency", "at once"],
] as const;

/** Every key, a page at a time: who owns it, its state, the limits the gateway enforces, and the operator's controls. */
export default async function AdminKeysPage({ searchParams }: Props) {
  const session = await requireOperator("/admin/keys");
  if (!session) return <OperatorsOnly />;
  const parsed = parseListParams(keyListParams, await searchParams);
  const { rt } = await getGateway();
  const list = parsed.ok ? await keysPage(rt.db, parsed.params) : null;
  const state = parsed.ok ? parsed.params.state : "working";
  const q = parsed.ok ? parsed.params.q : undefined;
  const today = todayUtc();
  const policies = [...rt.config.routing.guardrails.keys()];

  return (
    <AdminShell current="/admin/keys" title="Keys">
      <details className="mb-6 rounded-xl border border-slate-300 p-4 dark:border-slate-700">
        <summary className="cursor-pointer font-semibold">Create a key for someone</summary>
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          By their email address (an account is made if they have none). The key is shown once, here, for you to pass
          on; it then shows on their keys page by name.
        </p>
        <AdminCreateKeyForm areas={SCOPE_AREAS} today={today} />
      </details>
      <ListSearch
        action="/admin/keys"
        label="Search keys"
        q={q}
        placeholder="key name, prefix (sk_…), key id or owner's address"
        choice={{ name: "state", label: "Show", value: state, options: STATE_CHOICES }}
      />
      {!parsed.ok && <ListProblem error={parsed.error} action="/admin/keys" />}
      {list && (
        <Section id="keys" className="mt-8" title={<>{`Keys (${list.total})`}</>}>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            Limits are what the gateway enforces now: the key&apos;s own where set, otherwise the default for its kind.
            Empty a field to return to the default.
          </p>
          {list.rows.length === 0 ? (
            <p className="mt-2 text-slate-700 dark:text-slate-300">No keys match.</p>
          ) : (
            <ul className="mt-3 space-y-3">
              {list.rows.map((k) => {
                const status = keyState(k);
                const label = `${k.name} (${k.prefix})`;
                const { limits, scopes } = enforcedTerms(k, rt.config);
                const defaults = k.kind === "console" ? rt.config.console.limits : rt.config.limits;
                return (
                  <li
                    key={k.id}
                    data-testid={`admin-key-${k.prefix}`}
                    className="rounded-xl border border-slate-300 p-4 break-words dark:border-slate-700"
                  >
                    <h3 className="font-semibold">
                      {k.name} <code className="font-normal">{k.prefix}…</code>
                      {k.kind === "console" ? <span className="font-normal"> (console)</span> : null}
                    </h3>
                    <p className="mt-1 text-sm">
                      {k.email ?? "no owner"}
                      {k.team_id ? ` · team ${rt.levels.team(k.team_id)?.name ?? k.team_id}` : ""} ·{" "}
                      {status === "expiring" ? `expires ${formatUtc(k.expires_at)}` : status}
                      {k.replaced_by ? " (rotated)" : ""} · created {formatUtc(k.created_at)} · last used{" "}
                      {formatUtc(k.last_used_at)}
                    </p>
                    <p className="mt-1 text-sm" data-testid="areas">
                      Areas: {areasText(scopes)}
                      {scopes.source === "console" && (
                        <span className="text-slate-700 dark:text-slate-300">
                          {" "}
                          (console default, CONSOLE_KEY_SCOPES)
                        </span>
                      )}
                    </p>
                    <dl
                      className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3"
                      aria-label={`Enforced limits of ${label}`}
                    >
                      {WINDOWS.map(([w, words]) => (
                        <div key={w}>
                          <dt className="sr-only">{words}</dt>
                          <dd>
                            <strong data-testid={`limit-${w}`}>{limits[w].value.toLocaleString("en")}</strong> {words}{" "}
                            <span className="text-slate-700 dark:text-slate-300">
                              ({limitSourceText(limits[w].source, w)})
                            </span>
                          </dd>
                        </div>
                      ))}
                    </dl>
                    <p className="mt-1 text-sm" data-testid="model-rules">
                      Models: {modelRulesText(k.models)}
                    </p>
                    <p className="mt-1 text-sm" data-testid="cache-policy">
                      Response cache: {cachePolicyText(k.cache)}
                    </p>
                    <KeyGuardrailsLine guardrails={keyGuardrails(k, rt.levels, rt.config.routing)} />
                    {status !== "revoked" && (
                      <div className="mt-3 flex flex-wrap items-end justify-between gap-3">
                        <AdminLimitsForm
                          id={k.id}
                          name={label}
                          limits={k.limits}
                          defaults={defaults}
                          tokens={k.token_limits}
                        />
                        <AdminRevokeForm id={k.id} name={label} />
                        <AdminModelRulesForm id={k.id} name={label} models={k.models} />
                        <AdminCachePolicyForm id={k.id} name={label} cache={k.cache} />
                        <AdminGuardrailsForm id={k.id} name={label} guardrails={k.guardrails} policies={policies} />
                        {k.kind === "client" && (
                          <AdminKeyTermsForm
                            id={k.id}
                            name={label}
                            areas={SCOPE_AREAS}
                            scopes={k.scopes.filter((s) => !isOperatorScope(s))}
                            lastDay={k.expires_at ? lastDay(new Date(k.expires_at)) : ""}
                            today={today}
                          />
                        )}
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          <Pager
            base="/admin/keys"
            params={{ q, state: state === "working" ? undefined : state }}
            page={list.page}
            pages={list.pages}
            total={list.total}
            noun={["key", "keys"]}
          />
        </Section>
      )}
    </AdminShell>
  );
}
