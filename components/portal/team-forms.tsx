"use client";

import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { ActionMessages } from "./action-messages";
import { OneTimeKey } from "./one-time-key";

type Answer = { error?: string; key?: string; name?: string; prefix?: string; link?: string; mailed?: boolean };

/**
 * A form that posts its fields to one of the portal's team endpoints and says what came back: the
 * error, a done message, a new key (shown once), or an invitation link to pass on when no mail went.
 */
export function TeamForm({
  action,
  done,
  submit,
  danger,
  children,
  afterwards,
}: {
  /** The endpoint, e.g. /api/portal/teams/ID/invite. */
  action: string;
  /** What the status line says once it worked. */
  done: string;
  submit: string;
  danger?: boolean;
  children?: ReactNode;
  /** Where to go once it worked (leaving a team); else the page refreshes. */
  afterwards?: string;
}) {
  const router = useRouter();
  const [state, setState] = useState<{ message?: string; error?: string; answer?: Answer }>({});
  const [busy, setBusy] = useState(false);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setBusy(true);
    try {
      const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
      const res = await fetch(action, { method: "POST", body });
      const answer = (await res.json().catch(() => ({ error: `failed (${res.status})` }))) as Answer;
      if (!res.ok) return setState({ error: answer.error ?? `failed (${res.status})` });
      setState({ message: done, answer });
      if (!answer.key && !answer.link) {
        form.reset();
        if (afterwards) router.push(afterwards);
        else router.refresh();
      }
    } finally {
      setBusy(false);
    }
  }

  const button = danger
    ? "rounded-lg border border-red-700 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50 dark:border-red-400 dark:text-red-300 dark:hover:bg-red-950"
    : "rounded-lg bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-600";
  return (
    <div>
      <form onSubmit={send} className="flex flex-wrap items-end gap-3">
        {children}
        <button type="submit" disabled={busy} className={button}>
          {submit}
        </button>
      </form>
      <ActionMessages state={state} margin="mt-2" />
      {state.answer?.link && (
        <p className="mt-2 text-sm break-all">
          No mail could be sent: pass this link on to them yourself (it works once, for their address):{" "}
          <code>{state.answer.link}</code>
        </p>
      )}
      {state.answer?.key && (
        <div className="mt-3">
          <OneTimeKey name={state.answer.name ?? ""} prefix={state.answer.prefix ?? ""} secret={state.answer.key} />
        </div>
      )}
    </div>
  );
}

/** A labelled text or email field for a TeamForm. */
export function TeamField({ name, label, type = "text" }: { name: string; label: string; type?: "text" | "email" }) {
  return (
    <label className="flex flex-col text-sm">
      {label}
      <input
        name={name}
        type={type}
        required
        maxLength={type === "email" ? 320 : 100}
        className="mt-1 rounded-lg border border-slate-400 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-900"
      />
    </label>
  );
}

/** A labelled role picker for a TeamForm (the label apart from the select, so its name is the label alone). */
export function RolePicker({ roles, label = "Role" }: { roles: readonly string[]; label?: string }) {
  const id = useId();
  return (
    <div className="flex flex-col text-sm">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name="role"
        defaultValue={roles.includes("member") ? "member" : roles[0]}
        className="mt-1 rounded-lg border border-slate-400 bg-white px-2 py-1.5 dark:border-slate-600 dark:bg-slate-900"
      >
        {roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </div>
  );
}
