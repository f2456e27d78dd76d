import Link from "next/link";
import type { ReactNode } from "react";

/**
 * Views of one page as links (each view has its own URL, so the back button and shared links work),
 * the current one marked with aria-current. Wraps rather than scrolling sideways on a phone.
 */
export function TabNav({
  label,
  tabs,
  current,
}: {
  label: string;
  tabs: ReadonlyArray<{ href: string; name: ReactNode }>;
  current: string;
}) {
  return (
    <nav
      aria-label={label}
      className="mt-4 flex flex-wrap gap-x-1 border-b border-slate-200 text-sm dark:border-slate-800"
    >
      {tabs.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={t.href === current ? "page" : undefined}
          className="-mb-px border-b-2 border-transparent px-3 py-2 hover:text-indigo-700 aria-[current=page]:border-indigo-700 aria-[current=page]:font-semibold aria-[current=page]:text-indigo-800 dark:hover:text-indigo-300 dark:aria-[current=page]:border-indigo-300 dark:aria-[current=page]:text-indigo-200"
        >
          {t.name}
        </Link>
      ))}
    </nav>
  );
}
