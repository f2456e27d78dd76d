"use client";

import { useActionState, useState } from "react";
import { checkRouting, saveRouting } from "@/app/admin/routing/actions";
import type { RoutingActionState } from "@/lib/portal/admin/routing-actions";
import { ActionMessages } from "./action-messages";

const primary = "rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-60";
const secondary =
  "rounded-lg border border-slate-400 px-4 py-2 font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800";

/**
 * The routing file's text in a textarea, with Check (validate only) and Save (validate, write, reload).
 * The text is kept in state, so a Check or a refused Save leaves the operator's edits in place.
 */
export function RoutingEditor({
  text,
  version,
  target,
  format,
}: {
  text: string;
  version: string;
  target: string;
  format: "json" | "yaml";
}) {
  const [draft, setDraft] = useState(text);
  const [checked, check, checking] = useActionState<RoutingActionState, FormData>(checkRouting, {});
  const [saved, save, saving] = useActionState<RoutingActionState, FormData>(saveRouting, {});
  // The version the next Save is checked against: the page's, or the last Save's.
  const current = saved.version ?? version;
  const [shown, setShown] = useState<"check" | "save">("check");
  const state = shown === "check" ? checked : saved;
  return (
    <form className="mt-3 max-w-4xl">
      <label htmlFor="routing-text" className="text-sm font-medium">
        Text of {target}
      </label>
      <textarea
        id="routing-text"
        name="text"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        rows={24}
        spellCheck={false}
        placeholder={format === "json" ? '{"deployments": [], "aliases": {}}' : "deployments: []\naliases: {}"}
        className="mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 font-mono text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      />
      <input type="hidden" name="version" value={current} />
      <div className="mt-3 flex gap-3">
        <button
          type="submit"
          formAction={check}
          onClick={() => setShown("check")}
          className={secondary}
          disabled={checking || saving}
        >
          Check
        </button>
        <button
          type="submit"
          formAction={save}
          onClick={() => setShown("save")}
          className={primary}
          disabled={checking || saving}
        >
          Save
        </button>
      </div>
      <div className="mt-3">
        <ActionMessages state={state} />
        {state.problems && state.problems.length > 0 && (
          <ul
            aria-label="Problems in the file"
            className="mt-2 list-disc pl-6 font-mono text-sm text-red-700 dark:text-red-400"
          >
            {state.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
      </div>
    </form>
  );
}
