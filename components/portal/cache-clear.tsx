"use client";

import { useActionState } from "react";
import { clearCache } from "@/app/admin/routing/actions";
import type { CacheActionState } from "@/lib/portal/admin/cache-actions";
import { ActionMessages } from "./action-messages";

const danger =
  "rounded-lg border border-red-700 px-4 py-2 font-medium text-red-800 hover:bg-red-50 disabled:opacity-60 dark:border-red-400 dark:text-red-300 dark:hover:bg-red-950";

/** The operator's button that empties the response cache, every key's entries and every shared alias's. */
export function CacheClear() {
  const [state, clear, clearing] = useActionState<CacheActionState, FormData>(clearCache, {});
  return (
    <form action={clear} className="mt-3">
      <button type="submit" className={danger} disabled={clearing}>
        {clearing ? "Clearing…" : "Clear the response cache"}
      </button>
      <ActionMessages state={state} margin="mt-2" />
    </form>
  );
}
