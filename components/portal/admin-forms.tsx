"use client";

import { useActionState } from "react";
import { decideRequest, revokeAnyKey, setCachePolicy, setLimits, setModelRules } from "@/app/admin/actions";
import { ActionMessages } from "./action-messages";

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
