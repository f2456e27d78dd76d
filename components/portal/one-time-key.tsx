"use client";

import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore } from "react";
import { CodeTabs } from "@/components/code-tabs";
import { useSampleModel } from "@/components/sample-model";
import { firstCallSamples, helloRequest } from "@/lib/console/first-call.ts";

const noSubscription = () => () => {};

type Props = {
  name: string;
  prefix: string;
  secret: string;
  /** Takes the focus as it appears (it may appear above where the user pressed the button). */
  focus?: boolean;
  /** Called on "Done" instead of hiding itself (a holder removes it). */
  onDone?: () => void;
  /** Whose key it is, when someone else made it for them (the operator, to pass it on). */
  owner?: string;
};

/**
 * The one appearance of a new key. It lives only in this component's props (the server action's
 * answer): reloading or leaving the page loses it for good, which the text says plainly.
 */
export function OneTimeKey({ name, prefix, secret, focus = false, onDone, owner }: Props) {
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");
  const [hidden, setHidden] = useState(false);
  const router = useRouter();
  const model = useSampleModel();
  // The page's own origin (where the API is), read once in the browser; it never changes.
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  }

  if (hidden) return null;
  return (
    <section
      aria-labelledby="new-key-title"
      className="mt-4 rounded-xl border-2 border-emerald-600 bg-emerald-50 p-5 dark:border-emerald-500 dark:bg-emerald-950"
    >
      <h3
        id="new-key-title"
        className="text-lg font-semibold"
        tabIndex={focus ? -1 : undefined}
        ref={focus ? (h) => h?.focus() : undefined}
      >
        {owner ? `New key “${name}” (${prefix}…) for ${owner}` : `Your new key “${name}” (${prefix}…)`}
      </h3>
      <p className="mt-1 text-sm">
        <strong>Copy it now: it is shown only this once.</strong> We keep only a hash; if you lose it, rotate the key.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code
          data-testid="new-key"
          className="break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900 dark:bg-slate-900 dark:text-slate-100"
        >
          {secret}
        </code>
        <button
          type="button"
          onClick={copy}
          className="rounded-lg bg-emerald-700 px-3 py-2 text-sm font-medium text-white hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          Copy key
        </button>
        <span role="status" className="text-sm">
          {copied === "done"
            ? "Copied to the clipboard."
            : copied === "failed"
              ? "Copy failed: select the key and copy it by hand."
              : ""}
        </span>
      </div>
      <h4 className="mt-4 mb-2 font-medium">Your first call</h4>
      <CodeTabs
        samples={[
          ...firstCallSamples(origin, helloRequest(model), secret),
          { id: "check", label: "Check the key", code: `curl -H "X-API-Key: ${secret}" ${origin}/v1/key` },
        ]}
        label="First call"
        testId="first-call"
      />
      <button
        type="button"
        onClick={() => {
          if (onDone) onDone();
          else setHidden(true);
          router.refresh();
        }}
        className="mt-4 rounded-lg border border-slate-500 px-3 py-2 text-sm font-medium hover:bg-white dark:hover:bg-slate-900"
      >
        Done: I have stored the key
      </button>
    </section>
  );
}
