"use client";

import Link from "next/link";
import { useActionState } from "react";
import {
  collectKey,
  dismissMyRequest,
  renameMyKey,
  revokeMyKey,
  rotateMyKey,
  setMyKeyScopes,
  submitKeyRequest,
  withdrawMyRequest,
  type KeyActionState,
} from "@/app/keys/actions";
import { ActionMessages } from "./action-messages";
import { useNewKeyAction } from "./new-key";
import { OneTimeKey } from "./one-time-key";
import { ScopePicker } from "./scope-picker";

const input =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const primary = "rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-60";
const secondary =
  "rounded-lg border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800";

function Outcome({ state }: { state: KeyActionState }) {
  return (
    <>
      <ActionMessages state={state} margin="mt-2" />
      {state.created && (
        <OneTimeKey name={state.created.name} prefix={state.created.prefix} secret={state.created.key} />
      )}
    </>
  );
}

const help = "mt-1 text-sm text-slate-600 dark:text-slate-400";

/**
 * A key in one step: name, areas and last day, with what it is for. `instant`: this person's request
 * is approved at once by the server's policy, so sending it creates the key and shows it here.
 * After a refusal (a name already taken) the form comes back with what was typed.
 */
export function KeyRequestForm({
  instant,
  areas,
  today,
}: {
  instant: boolean;
  areas: readonly string[];
  /** Today's date (UTC): the earliest last day the date field offers. */
  today: string;
}) {
  const [state, action, pending] = useActionState(submitKeyRequest, {});
  if (state.created) return <Outcome state={state} />;
  if (state.message)
    return (
      <>
        <Outcome state={state} />
        <p className="mt-3">
          <Link href="/keys" className="font-medium text-indigo-700 underline dark:text-indigo-300">
            Go to your keys
          </Link>{" "}
          to follow the request.
        </p>
      </>
    );
  const typed = state.submitted;
  return (
    <form action={action} className="mt-6 max-w-xl space-y-5">
      <div>
        <label htmlFor="name" className="font-medium">
          Key name
        </label>
        <input
          id="name"
          name="name"
          required
          maxLength={100}
          className={input}
          placeholder="e.g. Thesis scraper"
          defaultValue={typed?.name}
          aria-describedby="name-help"
        />
        <p id="name-help" className={help}>
          Each of your keys has its own name.
        </p>
      </div>
      <ScopePicker areas={areas} selected={typed?.scopes ?? []} mode={typed?.scopeMode === "some" ? "some" : "all"} />
      <div>
        <label htmlFor="expiresOn" className="font-medium">
          Last day it works <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
        </label>
        <input
          id="expiresOn"
          name="expiresOn"
          type="date"
          min={today}
          className={input}
          defaultValue={typed?.expiresOn}
          aria-describedby="expiresOn-help"
        />
        <p id="expiresOn-help" className={help}>
          The key stops at midnight UTC at the end of that day. Leave empty for a key that does not expire.
        </p>
      </div>
      <div>
        <label htmlFor="intendedUse" className="font-medium">
          Intended use
        </label>
        <textarea
          id="intendedUse"
          name="intendedUse"
          required
          minLength={10}
          maxLength={2000}
          rows={4}
          className={input}
          defaultValue={typed?.intendedUse}
          aria-describedby="intendedUse-help"
        />
        <p id="intendedUse-help" className={help}>
          At least 10 characters: a sentence or two on what you will build and which areas you will call.
        </p>
      </div>
      <div>
        <label htmlFor="organisation" className="font-medium">
          Organisation <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
        </label>
        <input
          id="organisation"
          name="organisation"
          maxLength={200}
          className={input}
          defaultValue={typed?.organisation}
        />
      </div>
      <fieldset>
        <legend className="font-medium">Use type</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {["personal", "research", "education", "commercial"].map((t) => (
            <label key={t} className="flex items-center gap-2">
              <input
                type="radio"
                name="useType"
                value={t}
                defaultChecked={t === (typed?.useType ?? "personal")}
                required
              />
              {t[0]!.toUpperCase() + t.slice(1)}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className={primary} disabled={pending}>
        {pending ? "Sending…" : instant ? "Create my key" : "Send request"}
      </button>
      <Outcome state={state} />
    </form>
  );
}

/** Picks up an approved request's key; the key is shown once in the page's NewKeyHolder. */
export function CollectKeyForm({ requestId }: { requestId: string }) {
  const [state, action, pending] = useNewKeyAction(collectKey);
  return (
    <form action={action}>
      <input type="hidden" name="id" value={requestId} />
      {!state.created && (
        <button type="submit" className={primary} disabled={pending}>
          {pending ? "Creating…" : "Create and show my key"}
        </button>
      )}
      <ActionMessages state={state} margin="mt-2" />
    </form>
  );
}

export function RenameKeyForm({ id, name }: { id: string; name: string }) {
  const [state, action, pending] = useActionState(renameMyKey, {});
  return (
    <form action={action} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="id" value={id} />
      <label className="text-sm">
        New name
        <input name="name" defaultValue={name} required maxLength={100} className={input} />
      </label>
      <button type="submit" className={secondary} disabled={pending}>
        Rename
      </button>
      <Outcome state={state} />
    </form>
  );
}

/** `granted`: the operator limited this key to `areas`, so "every area" is not on offer. */
export function ScopesForm({
  id,
  scopes,
  areas,
  granted = false,
}: {
  id: string;
  scopes: string[];
  areas: readonly string[];
  granted?: boolean;
}) {
  const [state, action, pending] = useActionState(setMyKeyScopes, {});
  return (
    <form action={action} className="text-sm">
      <input type="hidden" name="id" value={id} />
      <ScopePicker areas={areas} selected={scopes} granted={granted} />
      <button type="submit" className={`${secondary} mt-2`} disabled={pending}>
        Save scopes
      </button>
      <Outcome state={state} />
    </form>
  );
}

const GRACE_WORDS: Record<string, string> = {
  "0": "stops at once",
  "1": "keeps working for 1 hour",
  "24": "keeps working for 24 hours",
  "72": "keeps working for 3 days",
  "168": "keeps working for 7 days",
};

/** Rotates a key, asked first; the new key is shown once in the page's NewKeyHolder and gets its own card. */
export function RotateKeyForm({ id, name }: { id: string; name: string }) {
  const [state, action, pending] = useNewKeyAction(rotateMyKey);
  return (
    <form
      action={action}
      onSubmit={(e) => {
        const grace = String(new FormData(e.currentTarget).get("graceHours"));
        const question = `Rotate “${name}”? A new key is made and shown once; the old one ${GRACE_WORDS[grace] ?? "keeps working for a while"}.`;
        if (!window.confirm(question)) e.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={id} />
      {!state.created && (
        <div className="flex flex-wrap items-end gap-2">
          <label className="text-sm">
            Old key keeps working for
            <select name="graceHours" defaultValue="24" className={input}>
              <option value="0">no time (stop it now)</option>
              <option value="1">1 hour</option>
              <option value="24">24 hours</option>
              <option value="72">3 days</option>
              <option value="168">7 days</option>
            </select>
          </label>
          <button type="submit" className={secondary} disabled={pending}>
            Rotate
          </button>
        </div>
      )}
      <ActionMessages state={state} margin="mt-2" />
    </form>
  );
}

/** `label`: the button's words where "Revoke" alone would not say which key (a rotated key's predecessor). */
export function RevokeKeyForm({ id, name, label = "Revoke" }: { id: string; name: string; label?: string }) {
  const [state, action, pending] = useActionState(revokeMyKey, {});
  return (
    <form
      action={action}
      onSubmit={(e) => {
        if (!window.confirm(`Revoke “${name}”? Programs using it stop working at once.`)) e.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={`${secondary} border-red-600 text-red-700 dark:text-red-400`} disabled={pending}>
        {label}
      </button>
      <Outcome state={state} />
    </form>
  );
}

/** Takes back a request no operator has decided yet, after asking. */
export function WithdrawRequestForm({ id, name }: { id: string; name: string }) {
  const [state, action, pending] = useActionState(withdrawMyRequest, {});
  return (
    <form
      action={action}
      onSubmit={(e) => {
        if (!window.confirm(`Withdraw the request for “${name}”? No operator will decide on it.`)) e.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={secondary} disabled={pending} aria-label={`Withdraw the request for “${name}”`}>
        Withdraw
      </button>
      <ActionMessages state={state} margin="mt-2" />
    </form>
  );
}

/** Puts a declined request, its note read, out of the list. */
export function DismissRequestForm({ id, name }: { id: string; name: string }) {
  const [state, action, pending] = useActionState(dismissMyRequest, {});
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <button
        type="submit"
        className={secondary}
        disabled={pending}
        aria-label={`Dismiss the declined request for “${name}”`}
      >
        Dismiss
      </button>
      <ActionMessages state={state} margin="mt-2" />
    </form>
  );
}
