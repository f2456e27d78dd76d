"use client";

import dynamic from "next/dynamic";
import { useState } from "react";

// Scalar is large (a Vue app inside): loaded after the server-rendered page shell has painted.
const ScalarReference = dynamic(() => import("./scalar-reference"), {
  ssr: false,
  loading: () => (
    <p role="status" className="animate-pulse p-6 text-slate-600 dark:text-slate-400">
      Loading the API reference…
    </p>
  ),
});

export function ApiReference() {
  // The key lives in this component's state only: never localStorage, sessionStorage or a cookie.
  const [apiKey, setApiKey] = useState("");
  return (
    <>
      <form
        className="mx-auto flex max-w-6xl flex-wrap items-end gap-3 px-4 sm:px-6"
        onSubmit={(e) => e.preventDefault()}
        autoComplete="off"
      >
        <label className="flex min-w-72 flex-1 flex-col gap-1 text-sm font-medium">
          Your API key for “Test request”
          <input
            type="password"
            name="try-it-key"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value.trim())}
            placeholder="sk_…"
            autoComplete="off"
            spellCheck={false}
            className="rounded-lg border border-slate-400 bg-white px-3 py-2 font-mono text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          />
        </label>
        <p className="pb-2 text-sm text-slate-700 dark:text-slate-300">
          Kept only in this page’s memory: reloading forgets it.
        </p>
      </form>
      <div className="mt-4" data-testid="api-reference">
        <ScalarReference apiKey={apiKey} />
      </div>
    </>
  );
}
