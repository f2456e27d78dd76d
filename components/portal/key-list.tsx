import type { KeySummary } from "@/lib/gateway/keys/key-list.ts";
import { enforcedTerms, isOperatorScope, SCOPE_AREAS, type KeyPolicy } from "@/lib/gateway/keys/record.ts";
import { areasText, modelRulesText } from "@/lib/portal/keys/enforced-limits.ts";
import { formatUtc, keyState } from "@/lib/portal/pages/format.ts";
import type { CurrentKey, RetiredKey } from "@/lib/portal/keys/lineage.ts";
import type { KeyGuardrails } from "@/lib/portal/keys/guardrail-policy.ts";
import { BudgetEditor, BudgetStanding, type BudgetCardProps } from "./budget-forms";
import { KeyGuardrailsLine } from "./guardrail-decisions";
import { RenameKeyForm, RevokeKeyForm, RotateKeyForm, ScopesForm } from "./key-forms";

const STATE_STYLE = {
  active: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  expiring: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  expired: "bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100",
  revoked: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
};
const muted = "text-slate-700 dark:text-slate-300";

function StateBadge({ keyRow }: { keyRow: KeySummary }) {
  const state = keyState(keyRow);
  const text =
    state === "expiring"
      ? `expires ${formatUtc(keyRow.expires_at)}`
      : state === "expired"
        ? `expired ${formatUtc(keyRow.expires_at)}`
        : state;
  return <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATE_STYLE[state]}`}>{text}</span>;
}

/**
 * The key's dates and what the gateway holds it to (enforcedTerms: a console key gets the console policy;
 * `withheld`: the model areas a console key may not call until its user is approved).
 */
function Facts({
  keyRow: k,
  policy,
  withheld,
}: {
  keyRow: KeySummary;
  policy: KeyPolicy;
  withheld: readonly string[];
}) {
  const { limits, scopes } = enforcedTerms(k, policy);
  const open = { ...scopes, value: scopes.value.filter((s) => !withheld.includes(s)) };
  const waiting = withheld.filter((s) => (scopes.value.length ? scopes.value.includes(s) : true));
  return (
    <dl className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-4">
      <div>
        <dt className={`inline ${muted}`}>Created </dt>
        <dd className="inline">{formatUtc(k.created_at)}</dd>
      </div>
      <div>
        <dt className={`inline ${muted}`}>Last used </dt>
        <dd className="inline">{formatUtc(k.last_used_at)}</dd>
      </div>
      <div>
        <dt className={`inline ${muted}`}>Limits </dt>
        <dd className="inline" data-testid="limits">
          {limits.day.value.toLocaleString("en")}/day · {limits.minute.value.toLocaleString("en")}/min ·{" "}
          {limits.concurrency.value.toLocaleString("en")} at once
        </dd>
      </div>
      <div>
        <dt className={`inline ${muted}`}>Areas </dt>
        <dd className="inline" data-testid="areas">
          {areasText(open)}
          {waiting.length > 0 && ` (${waiting.join(", ")} once a key request of yours is approved)`}
        </dd>
      </div>
      {(k.models.allow.length > 0 || k.models.deny.length > 0) && (
        <div>
          <dt className={`inline ${muted}`}>Models </dt>
          <dd className="inline" data-testid="model-rules">
            {modelRulesText(k.models)} (set by the operator)
          </dd>
        </div>
      )}
    </dl>
  );
}

/**
 * A working key with the keys it replaced that still work ("replaces …, old key valid until …"),
 * each of which can be stopped early. A key in its grace period offers no Rotate: it was rotated
 * already, and the rotation to make is its replacement's.
 */
export function CurrentKeyItem({
  entry,
  policy,
  withheld = [],
  budget,
  guardrails,
}: {
  entry: CurrentKey;
  policy: KeyPolicy;
  /** The guardrail policy its model calls are under, and where it comes from. */
  guardrails: KeyGuardrails;
  /** For a console key whose user is not approved yet: the model areas the gateway refuses it. */
  withheld?: readonly string[];
  /** The key's monthly budget and the operator's ceilings, for an active client key. */
  budget?: { standing: BudgetCardProps["budget"]; ceilings: BudgetCardProps["ceilings"] };
}) {
  const { key: k, predecessors, replacedBy } = entry;
  const changeable = k.kind === "client";
  const grantedAreas = k.granted_scopes.filter((s) => !isOperatorScope(s));
  return (
    <li
      id={`key-${k.prefix}`}
      className="scroll-mt-4 rounded-xl border border-slate-300 p-4 dark:border-slate-700"
      data-testid={`key-${k.prefix}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="font-semibold">{k.name}</h3>
        <code className="text-sm">{k.prefix}…</code>
        <StateBadge keyRow={k} />
        {k.kind === "console" && (
          <span className={`text-sm ${muted}`}>used by the consoles while you are signed in</span>
        )}
      </div>
      {replacedBy && (
        <p className="mt-2 text-sm">
          Rotated, but its replacement <code>{replacedBy.prefix}…</code> was {keyState(replacedBy)}: this key works
          until {formatUtc(k.expires_at)}. Request a new key to go on after that.
        </p>
      )}
      {predecessors.length > 0 && (
        <ul className="mt-2 space-y-2" aria-label={`Keys “${k.name}” replaces`}>
          {predecessors.map((p) => (
            <li
              key={p.id}
              data-testid={`key-${p.prefix}`}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-amber-50 px-3 py-2 text-sm dark:bg-amber-950"
            >
              <span>
                Replaces <code>{p.prefix}…</code> · old key valid until {formatUtc(p.expires_at)}
              </span>
              <RevokeKeyForm id={p.id} name={`${p.name} (${p.prefix}…)`} label="Stop the old key now" />
            </li>
          ))}
        </ul>
      )}
      <Facts keyRow={k} policy={policy} withheld={k.kind === "console" ? withheld : []} />
      <KeyGuardrailsLine guardrails={guardrails} />
      {budget?.standing && <BudgetStanding name={k.name} budget={budget.standing} />}
      {changeable && (
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-medium text-indigo-700 dark:text-indigo-300">
            Manage “{k.name}”
          </summary>
          <div className="mt-3 space-y-4 border-l-2 border-slate-300 pl-4 dark:border-slate-700">
            <RenameKeyForm id={k.id} name={k.name} />
            <ScopesForm
              id={k.id}
              scopes={k.scopes.filter((s) => !isOperatorScope(s))}
              areas={grantedAreas.length ? grantedAreas : SCOPE_AREAS}
              granted={grantedAreas.length > 0}
            />
            {budget && (
              <section aria-label={`Monthly budget of “${k.name}”`}>
                <h4 className="text-sm font-medium">Monthly budget</h4>
                {!budget.standing && <BudgetStanding name={k.name} budget={null} />}
                <BudgetEditor keyId={k.id} budget={budget.standing} ceilings={budget.ceilings} />
              </section>
            )}
            {k.replaced_by === null && <RotateKeyForm id={k.id} name={`${k.name} (${k.prefix}…)`} />}
            <RevokeKeyForm id={k.id} name={`${k.name} (${k.prefix}…)`} />
          </div>
        </details>
      )}
    </li>
  );
}

/**
 * Keys that no longer work, folded away under their count. An expired key still holds its name
 * (names are unique per owner until a key is revoked), so it can be revoked here to free it.
 */
export function RetiredKeys({ retired }: { retired: RetiredKey[] }) {
  return (
    <details className="mt-6 rounded-xl border border-slate-300 p-4 dark:border-slate-700">
      <summary className="cursor-pointer font-medium">Revoked and expired ({retired.length})</summary>
      <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
        {retired.map(({ key: k, state, replacedBy }) => (
          <li key={k.id} data-testid={`key-${k.prefix}`} className="py-2 text-sm">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="font-medium">{k.name}</span>
              <code>{k.prefix}…</code>
              <StateBadge keyRow={k} />
              {replacedBy && (
                <span className={muted}>
                  replaced by <code>{replacedBy.prefix}…</code>
                </span>
              )}
              <span className={muted}>
                created {formatUtc(k.created_at)} · last used {formatUtc(k.last_used_at)}
              </span>
            </div>
            {state === "expired" && k.kind === "client" && k.replaced_by === null && (
              <div className="mt-1">
                <RevokeKeyForm id={k.id} name={`${k.name} (${k.prefix}…)`} label="Revoke, freeing its name" />
              </div>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
