"use client";

import { useActionState } from "react";
import {
  createKeyForUser,
  decideRequest,
  revokeAnyKey,
  setCachePolicy,
  setGuardrails,
  setKeyTerms,
  setLimits,
  setModelRules,
} from "@/app/admin/actions";
import { ActionMessages } from "./action-messages";
import { OneTimeKey } from "./one-time-key";
import { ScopePicker } from "./scope-picker";

const button = "rounded-lg px-3 py-1.5 text-sm font-medium disabled:opacity-60";

/**
 * Approve or decline a waiting request, each confirmed first (a decision mails the requester and
 * cannot be taken back), with an optional note the requester reads.
 */
export function DecisionForm({ id, name, email }: { id: string; name: string; email: string }) {
  const [state, action, pending] = useActionState(decideRequest, {});
  if (state.message) return <ActionMessages state={state} />;
  return (
    <form
      action={action}
      onSubmit={(e) => {
        const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        const note = new FormData(e.currentTarget).get("note");
        const told = note ? ", with your note" : "";
        const question =
          submitter?.value === "decline"
            ? `Decline “${name}” for ${email}? They are told${told}, and cannot collect a key from this request.`
            : `Approve “${name}” for ${email}? They are told${told}, and can then create the key.`;
        if (!window.confirm(question)) e.preventDefault();
      }}
      className="mt-3 flex flex-wrap items-end gap-2"
    >
      <input type="hidden" name="id" value={id} />
      <label className="w-full text-sm sm:w-auto">
        Note to the requester (optional)
        <input
          name="note"
          maxLength={1000}
          aria-label={`Note about ${name}`}
          className="mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-1.5 text-slate-900 sm:w-72 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
        />
      </label>
      <button
        type="submit"
        name="decision"
        value="approve"
        disabled={pending}
        className={`${button} bg-emerald-700 text-white hover:bg-emerald-800`}
        aria-label={`Approve ${name}`}
      >
        Approve
      </button>
      <button
        type="submit"
        name="decision"
        value="decline"
        disabled={pending}
        className={`${button} border border-red-600 text-red-700 dark:text-red-400`}
        aria-label={`Decline ${name}`}
      >
        Decline
      </button>
      <ActionMessages state={state} />
    </form>
  );
}

export function AdminRevokeForm({ id, name }: { id: string; name: string }) {
  const [state, action, pending] = useActionState(revokeAnyKey, {});
  if (state.message) return <ActionMessages state={state} />;
  return (
    <form
      action={action}
      onSubmit={(e) => {
        if (!window.confirm(`Revoke “${name}”?`)) e.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        disabled={pending}
        className={`${button} border border-red-600 text-red-700 dark:text-red-400`}
        aria-label={`Revoke ${name}`}
      >
        Revoke
      </button>
      <ActionMessages state={state} />
    </form>
  );
}

type Limits = { day: number | null; minute: number | null; concurrency: number | null };

const limitInput =
  "mt-1 block w-32 rounded-lg border border-slate-400 bg-white px-2 py-1 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

/**
 * Per-key limits; an empty field falls back to the default for the key's kind, whose number the
 * field shows as its placeholder (`defaults`).
 */
export function AdminLimitsForm({
  id,
  name,
  limits,
  defaults,
  tokens,
}: {
  id: string;
  name: string;
  limits: Limits;
  defaults: { [K in keyof Limits]: number };
  /** The key's model-token windows; null is none (tokens have no default). */
  tokens: { minute: number | null; day: number | null };
}) {
  const [state, action, pending] = useActionState(setLimits, {});
  // Request windows fall back to the default (its number is the placeholder); token windows have none.
  const fields: [string, string, number | null, string][] = [
    ["day", "Requests a day", limits.day, `${defaults.day.toLocaleString("en")} (default)`],
    ["minute", "Requests a minute", limits.minute, `${defaults.minute.toLocaleString("en")} (default)`],
    ["concurrency", "At once", limits.concurrency, `${defaults.concurrency.toLocaleString("en")} (default)`],
    ["tokensMinute", "Tokens a minute", tokens.minute, "no limit"],
    ["tokensDay", "Tokens a day", tokens.day, "no limit"],
  ];
  return (
    <form action={action} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="id" value={id} />
      {fields.map(([field, label, value, placeholder]) => (
        <label key={field} className="text-xs">
          {label}
          <input
            name={field}
            type="number"
            min={1}
            max={100_000_000}
            step={1}
            defaultValue={value ?? ""}
            placeholder={placeholder}
            aria-label={`${label} limit of ${name}${field.startsWith("tokens") ? " (model tokens, prompt and completion)" : ""}`}
            className={limitInput}
          />
        </label>
      ))}
      <button
        type="submit"
        disabled={pending}
        className={`${button} border border-slate-400 dark:border-slate-600`}
        aria-label={`Save limits of ${name}`}
      >
        Save
      </button>
      <ActionMessages state={state} />
    </form>
  );
}

/**
 * A key's model rules: aliases or provider/model patterns (`*` for any run of characters), separated
 * by commas or spaces. An empty allow field lets every model through that deny does not name.
 */
export function AdminModelRulesForm({
  id,
  name,
  models,
}: {
  id: string;
  name: string;
  models: { allow: string[]; deny: string[] };
}) {
  const [state, action, pending] = useActionState(setModelRules, {});
  const fields: ["allow" | "deny", string, string][] = [
    ["allow", "Only these models", "any model"],
    ["deny", "Never these models", "none"],
  ];
  return (
    <form action={action} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="id" value={id} />
      {fields.map(([field, label, empty]) => (
        <label key={field} className="text-xs">
          {label}
          <input
            name={field}
            type="text"
            maxLength={12_000}
            defaultValue={models[field].join(", ")}
            placeholder={`${empty} (e.g. smart, openai/*)`}
            aria-label={`${label} for ${name}`}
            className="mt-1 block w-64 rounded-lg border border-slate-400 bg-white px-2 py-1 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          />
        </label>
      ))}
      <button
        type="submit"
        disabled={pending}
        className={`${button} border border-slate-400 dark:border-slate-600`}
        aria-label={`Save model rules of ${name}`}
      >
        Save
      </button>
      <ActionMessages state={state} />
    </form>
  );
}

/**
 * A key's response-cache policy (docs/cache.md): how old an answer its model calls take without asking
 * (empty: only when a request asks), whether questions match by meaning too, and whose keys share the
 * answers.
 */
export function AdminCachePolicyForm({
  id,
  name,
  cache,
}: {
  id: string;
  name: string;
  cache: { max_age: number | null; semantic: boolean; scope: string };
}) {
  const [state, action, pending] = useActionState(setCachePolicy, {});
  const field =
    "mt-1 block rounded-lg border border-slate-400 bg-white px-2 py-1 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
  return (
    <form action={action} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="id" value={id} />
      <label className="text-xs">
        Cache answers up to (seconds)
        <input
          name="maxAge"
          type="number"
          min={1}
          max={31_536_000}
          defaultValue={cache.max_age ?? ""}
          placeholder="only when asked"
          aria-label={`Cache age in seconds for ${name}`}
          className={`${field} w-36`}
        />
      </label>
      <label htmlFor={`cache-scope-${id}`} className="text-xs">
        Shared with
      </label>
      <select
        id={`cache-scope-${id}`}
        name="scope"
        defaultValue={cache.scope}
        aria-label={`Cache shared with, for ${name}`}
        className={field}
      >
        <option value="key">this key alone</option>
        <option value="user">its owner&apos;s keys</option>
        <option value="team">its team&apos;s keys</option>
      </select>
      <label className="flex items-center gap-1 text-xs">
        <input
          name="semantic"
          type="checkbox"
          defaultChecked={cache.semantic}
          aria-label={`Match by meaning for ${name}`}
        />
        Match by meaning
      </label>
      <button
        type="submit"
        disabled={pending}
        className={`${button} border border-slate-400 dark:border-slate-600`}
        aria-label={`Save cache policy of ${name}`}
      >
        Save
      </button>
      <ActionMessages state={state} />
    </form>
  );
}

/**
 * A key's guardrail policy (docs/guardrails.md): one the routing file declares, or none of its own (its
 * team's or its alias's then applies).
 */
export function AdminGuardrailsForm({
  id,
  name,
  guardrails,
  policies,
}: {
  id: string;
  name: string;
  guardrails: string | null;
  /** The routing file's policy names. */
  policies: readonly string[];
}) {
  const [state, action, pending] = useActionState(setGuardrails, {});
  // A policy since dropped from the routing file stays chosen, so saving other settings never clears it unseen.
  const choices = guardrails === null || policies.includes(guardrails) ? policies : [guardrails, ...policies];
  return (
    <form action={action} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="id" value={id} />
      <label htmlFor={`guardrails-${id}`} className="text-xs">
        Guardrail policy
      </label>
      <select
        id={`guardrails-${id}`}
        name="guardrails"
        defaultValue={guardrails ?? ""}
        aria-label={`Guardrail policy of ${name}`}
        className="mt-1 block rounded-lg border border-slate-400 bg-white px-2 py-1 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        <option value="">none of its own</option>
        {choices.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
      <button
        type="submit"
        disabled={pending}
        className={`${button} border border-slate-400 dark:border-slate-600`}
        aria-label={`Save guardrail policy of ${name}`}
      >
        Save
      </button>
      <ActionMessages state={state} />
    </form>
  );
}

const field =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-1.5 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

/** The last-day date field of the admin key forms: empty for a key that does not expire. */
function LastDayField({ id, value, today }: { id: string; value: string; today: string }) {
  return (
    <div>
      <label htmlFor={id} className="font-medium">
        Last day it works <span className="font-normal text-slate-700 dark:text-slate-300">(optional)</span>
      </label>
      <input
        id={id}
        name="expiresOn"
        type="date"
        min={today}
        defaultValue={value}
        aria-describedby={`${id}-help`}
        className={`${field} sm:w-56`}
      />
      <p id={`${id}-help`} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        It stops at midnight UTC at the end of that day. Empty: it does not expire.
      </p>
    </div>
  );
}

/** A key's areas (its grant with them) and last day, folded away until the operator opens it. */
export function AdminKeyTermsForm({
  id,
  name,
  areas,
  scopes,
  lastDay,
  today,
}: {
  id: string;
  name: string;
  areas: readonly string[];
  /** The areas it may call now ([] = every area), operator scopes left out. */
  scopes: readonly string[];
  /** Its last day (YYYY-MM-DD) or "" when it does not expire. */
  lastDay: string;
  today: string;
}) {
  const [state, action, pending] = useActionState(setKeyTerms, {});
  return (
    <details className="w-full rounded-lg border border-slate-300 p-3 text-sm dark:border-slate-700">
      <summary className="cursor-pointer font-medium">Areas and last day of {name}</summary>
      <form action={action} className="mt-3 space-y-4">
        <input type="hidden" name="id" value={id} />
        <ScopePicker areas={areas} selected={scopes} />
        <LastDayField id={`expires-${id}`} value={lastDay} today={today} />
        <button
          type="submit"
          disabled={pending}
          className={`${button} border border-slate-400 dark:border-slate-600`}
          aria-label={`Save areas and last day of ${name}`}
        >
          Save
        </button>
        <ActionMessages state={state} />
      </form>
    </details>
  );
}

/**
 * A key for a person by address (an account is made for an address without one), shown once to the
 * operator to pass on; the person sees it on their keys page, never its secret.
 */
export function AdminCreateKeyForm({ areas, today }: { areas: readonly string[]; today: string }) {
  const [state, action, pending] = useActionState(createKeyForUser, {});
  return (
    <div>
      {state.created && (
        <OneTimeKey
          key={state.created.prefix}
          name={state.created.name}
          prefix={state.created.prefix}
          secret={state.created.key}
          owner={state.created.email}
          focus
        />
      )}
      <form action={action} className="mt-3 max-w-xl space-y-4">
        <div>
          <label htmlFor="new-key-email" className="font-medium">
            Owner&apos;s email
          </label>
          <input id="new-key-email" name="email" type="email" required maxLength={320} className={field} />
        </div>
        <div>
          <label htmlFor="new-key-name" className="font-medium">
            Key name
          </label>
          <input id="new-key-name" name="name" required maxLength={100} className={field} />
        </div>
        <ScopePicker areas={areas} selected={[]} />
        <LastDayField id="new-key-expires" value="" today={today} />
        <button
          type="submit"
          disabled={pending}
          className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-60"
        >
          {pending ? "Creating…" : "Create the key"}
        </button>
        <ActionMessages state={state} margin="mt-2" />
      </form>
    </div>
  );
}
