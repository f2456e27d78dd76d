"use client";

import { useActionState } from "react";
import { deleteMyProviderKey, saveMyProviderKey } from "@/app/keys/providers/actions";
import { ActionMessages } from "./action-messages";

const input =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const primary = "rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-60";
const secondary =
  "rounded-lg border border-red-600 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-slate-100 disabled:opacity-60 dark:text-red-400 dark:hover:bg-slate-800";
const help = "mt-1 text-sm text-slate-600 dark:text-slate-400";

/**
 * Adds a provider key, or replaces the one stored under the same provider and label. The key field is
 * a password field, emptied after each try: the key is never shown again, here or anywhere.
 */
export function SaveProviderKeyForm({ providers }: { providers: readonly string[] }) {
  const [state, action, pending] = useActionState(saveMyProviderKey, {});
  return (
    <form action={action} className="mt-3 max-w-xl space-y-4">
      <div>
        <label htmlFor="provider" className="font-medium">
          Provider
        </label>
        <select id="provider" name="provider" required className={input}>
          {providers.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="secret" className="font-medium">
          API key
        </label>
        <input
          id="secret"
          name="secret"
          type="password"
          required
          minLength={12}
          maxLength={4096}
          autoComplete="off"
          spellCheck={false}
          className={input}
          aria-describedby="secret-help"
        />
        <p id="secret-help" className={help}>
          Stored encrypted; only its last four characters are shown again. A key stored for a provider replaces the one
          before it.
        </p>
      </div>
      <div>
        <label htmlFor="label" className="font-medium">
          Label <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
        </label>
        <input id="label" name="label" maxLength={64} className={input} placeholder="default" />
      </div>
      <button type="submit" className={primary} disabled={pending}>
        Save key
      </button>
      <ActionMessages state={state} margin="mt-2" />
    </form>
  );
}

export function DeleteProviderKeyForm({ provider, label }: { provider: string; label: string }) {
  const [state, action, pending] = useActionState(deleteMyProviderKey, {});
  return (
    <form
      action={action}
      onSubmit={(e) => {
        if (!window.confirm(`Delete your ${provider} key “${label}”? Your calls use the gateway’s own key again.`))
          e.preventDefault();
      }}
    >
      <input type="hidden" name="provider" value={provider} />
      <input type="hidden" name="label" value={label} />
      <button type="submit" className={secondary} disabled={pending} aria-label={`Delete ${provider} key ${label}`}>
        Delete
      </button>
      <ActionMessages state={state} margin="mt-1" />
    </form>
  );
}
