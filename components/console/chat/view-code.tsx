"use client";

import { useState, useSyncExternalStore } from "react";
import { codeSamples, type ChatBody, type CodeSample } from "@/lib/console/chat-request.ts";

const noSubscription = () => () => {};

/**
 * "View code": the request Send would post now, as curl, JavaScript and Python against this page's
 * own origin (where the API is), with the key as a placeholder read from the environment.
 */
export function ViewCode({ body }: { body: ChatBody }) {
  const [language, setLanguage] = useState<CodeSample["id"]>("curl");
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );
  const samples = codeSamples(origin, body);
  const sample = samples.find((s) => s.id === language)!;

  async function copy() {
    try {
      await navigator.clipboard.writeText(sample.code);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <details className="min-w-0 rounded-lg border border-slate-300 p-3 dark:border-slate-700">
      <summary className="cursor-pointer text-sm font-medium">View code</summary>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        This conversation as one request, with the message you are typing. Set <code>API_KEY</code> to one of your keys
        first.
      </p>
      <div role="group" aria-label="Language" className="mt-3 flex flex-wrap gap-2">
        {samples.map((s) => (
          <button
            key={s.id}
            type="button"
            aria-pressed={s.id === language}
            onClick={() => {
              setLanguage(s.id);
              setCopied("idle");
            }}
            className="rounded-lg border border-slate-400 px-3 py-1 text-sm aria-pressed:border-indigo-700 aria-pressed:bg-indigo-700 aria-pressed:text-white dark:border-slate-600 dark:aria-pressed:border-indigo-400 dark:aria-pressed:bg-indigo-400 dark:aria-pressed:text-slate-950"
          >
            {s.label}
          </button>
        ))}
        <button
          type="button"
          onClick={() => void copy()}
          className="ml-auto rounded-lg border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Copy
        </button>
        <span role="status" className="text-sm">
          {copied === "done" ? "Copied." : copied === "failed" ? "Copy failed: select the code and copy it." : ""}
        </span>
      </div>
      <pre
        tabIndex={0}
        aria-label={`${sample.label} code`}
        data-testid="chat-code"
        className="mt-3 max-h-96 overflow-auto rounded-lg bg-slate-900 p-3 text-sm text-slate-100"
      >
        <code>{sample.code}</code>
      </pre>
    </details>
  );
}
