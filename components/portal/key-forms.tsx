"use client";

import { useActionState } from "react";
import {
  collectKey,
  renameMyKey,
  revokeMyKey,
  rotateMyKey,
  setMyKeyScopes,
  submitKeyRequest,
  type KeyActionState,
} from "@/app/keys/actions";
import { ActionMessages } from "./action-messages";
import { OneTimeKey } from "./one-time-key";

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

export function KeyRequestForm({ autoApprove }: { autoApprove: boolean }) {
  const [state, action, pending] = useActionState(submitKeyRequest, {});
  if (state.created || state.message) return <Outcome state={state} />;
  return (
    <form action={action} className="mt-6 max-w-xl space-y-4">
      <div>
        <label htmlFor="name" className="font-medium">
          Key name
        </label>
        <input id="name" name="name" required maxLength={100} className={input} placeholder="e.g. Thesis scraper" />
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
          aria-describedby="intendedUse-help"
        />
        <p id="intendedUse-help" className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          A sentence or two: what you will build and which areas you will call.
        </p>
      </div>
      <div>
        <label htmlFor="organisation" className="font-medium">
          Organisation <span className="font-normal text-slate-600 dark:text-slate-400">(optional)</span>
        </label>
        <input id="organisation" name="organisation" maxLength={200} className={input} />
      </div>
      <fieldset>
        <legend className="font-medium">Use type</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {["personal", "research", "education", "commercial"].map((t, i) => (
            <label key={t} className="flex items-center gap-2">
              <input type="radio" name="useType" value={t} defaultChecked={i === 0} required />
              {t[0]!.toUpperCase() + t.slice(1)}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className={primary} disabled={pending}>
        {pending ? "Sending…" : autoApprove ? "Create my key" : "Send request"}
      </button>
      <Outcome state={state} />
    </form>
  );
}

export function CollectKeyForm({ requestId }: { requestId: string }) {
  const [state, action, pending] = useActionState(collectKey, {});
  return (
    <form action={action}>
      <input type="hidden" name="id" value={requestId} />
      {!state.created && (
        <button type="submit" className={primary} disabled={pending}>
          {pending ? "Creating…" : "Create and show my key"}
        </button>
      )}
      <Outcome state={state} />
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

/** `granted`: the operator limited this key to `areas`, so ticking none does not mean every area. */
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
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <fieldset>
        <legend className="text-sm font-medium">
          {granted
            ? "Areas this key may call (the operator granted these; tick at least one)"
            : "Areas this key may call (none ticked = all)"}
        </legend>
        <div className="mt-1 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          {areas.map((a) => (
            <label key={a} className="flex items-center gap-2">
              <input type="checkbox" name="scopes" value={a} defaultChecked={scopes.includes(a)} />
              {a}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className={`${secondary} mt-2`} disabled={pending}>
        Save scopes
      </button>
      <Outcome state={state} />
    </form>
  );
}

export function RotateKeyForm({ id }: { id: string }) {
  const [state, action, pending] = useActionState(rotateMyKey, {});
  return (
    <form action={action}>
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
      <Outcome state={state} />
    </form>
  );
}

export function RevokeKeyForm({ id, name }: { id: string; name: string }) {
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
        Revoke
      </button>
      <Outcome state={state} />
    </form>
  );
}
