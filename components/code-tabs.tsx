"use client";

import { useState } from "react";

export type Sample = { id: string; label: string; code: string };

type Props = {
  samples: Sample[];
  /** Names the group of form buttons and the code block ("First call", "Language"). */
  label: string;
  testId?: string;
};

/**
 * Code in several forms, one shown at a time: a button for each form (pressed: the one shown), a copy
 * button for what is shown, and the code in a block a keyboard can scroll.
 */
export function CodeTabs({ samples, label, testId }: Props) {
  const [chosen, setChosen] = useState(samples[0]?.id);
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");
  const sample = samples.find((s) => s.id === chosen) ?? samples[0];
  if (!sample) return null;

  async function copy(code: string) {
    try {
      await navigator.clipboard.writeText(code);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <div className="min-w-0">
      <div role="group" aria-label={label} className="flex flex-wrap items-center gap-2">
        {samples.map((s) => (
          <button
            key={s.id}
            type="button"
            aria-pressed={s.id === sample.id}
            onClick={() => {
              setChosen(s.id);
              setCopied("idle");
            }}
            className="rounded-lg border border-slate-400 px-3 py-1 text-sm aria-pressed:border-indigo-700 aria-pressed:bg-indigo-700 aria-pressed:text-white dark:border-slate-600 dark:aria-pressed:border-indigo-400 dark:aria-pressed:bg-indigo-400 dark:aria-pressed:text-slate-950"
          >
            {s.label}
          </button>
        ))}
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <button
          type="button"
          onClick={() => void copy(sample.code)}
          className="rounded-lg border border-slate-500 px-3 py-1 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          Copy {sample.label}
        </button>
        <span role="status" className="text-sm">
          {copied === "done" ? "Copied." : copied === "failed" ? "Copy failed: select the code and copy it." : ""}
        </span>
      </div>
      {/* Focusable: long lines scroll sideways, and a keyboard must be able to scroll them. */}
      <pre
        tabIndex={0}
        aria-label={`${sample.label} code`}
        data-testid={testId}
        className="mt-2 max-h-96 overflow-auto rounded-lg bg-slate-900 p-3 text-sm text-slate-100"
      >
        <code>{sample.code}</code>
      </pre>
    </div>
  );
}
