"use client";

import { useRouter } from "next/navigation";
import { useState, useSyncExternalStore } from "react";

const noSubscription = () => () => {};

type Props = {
  name: string;
  prefix: string;
  secret: string;
  /** Takes the focus as it appears (it may appear above where the user pressed the button). */
  focus?: boolean;
  /** Called on "Done" instead of hiding itself (a holder removes it). */
  onDone?: () => void;
};

function samples(origin: string, key: string): { label: string; code: string }[] {
  const url = `${origin}/v1/key`;
  return [
    { label: "curl", code: `curl -H "X-API-Key: ${key}" ${url}` },
    {
      label: "fetch (Node or Deno)",
      code: `// export API_KEY=${key}\nconst res = await fetch("${url}", {\n  headers: { "X-API-Key": process.env.API_KEY },\n});\nconsole.log(await res.json());`,
    },
    {
      label: "Python requests",
      code: `# export API_KEY=${key}\nimport os, requests\n\nres = requests.get("${url}", headers={"X-API-Key": os.environ["API_KEY"]})\nprint(res.json())`,
    },
  ];
}

/**
 * The one appearance of a new key. It lives only in this component's props (the server action's
 * answer): reloading or leaving the page loses it for good, which the text says plainly.
 */
export function OneTimeKey({ name, prefix, secret, focus = false, onDone }: Props) {
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");
  const [hidden, setHidden] = useState(false);
  const router = useRouter();
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
        Your new key “{name}” ({prefix}…)
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
      <h4 className="mt-4 font-medium">Try it</h4>
      {samples(origin, secret).map((s) => (
        <figure key={s.label} className="mt-2">
          <figcaption className="text-sm text-slate-700 dark:text-slate-300">{s.label}</figcaption>
          <pre className="mt-1 overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm text-slate-100">
            <code>{s.code}</code>
          </pre>
        </figure>
      ))}
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
