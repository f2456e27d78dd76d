import Link from "next/link";
import { CAPABILITIES, docsTagHref } from "@/lib/portal/pages/capabilities.ts";

export function CapabilityGrid() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {CAPABILITIES.map((c) => (
        // The whole card is the link's target area; the heading's link names it for screen readers.
        <li
          key={c.title}
          className="relative rounded-xl border border-slate-200 p-5 focus-within:ring-2 focus-within:ring-indigo-500 hover:border-indigo-400 dark:border-slate-800 dark:hover:border-indigo-500"
        >
          <h3 className="font-semibold">
            <Link href={docsTagHref(c.tag)} className="after:absolute after:inset-0 focus:outline-none">
              {c.title}
            </Link>
          </h3>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{c.body}</p>
          <code className="mt-3 inline-block text-xs text-indigo-700 dark:text-indigo-300">{c.path}</code>
        </li>
      ))}
    </ul>
  );
}
