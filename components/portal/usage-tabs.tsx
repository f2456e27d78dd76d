import Link from "next/link";

const TABS = [
  { href: "/usage", name: "Dashboard" },
  { href: "/usage/requests", name: "Request log" },
] as const;

/** The two views of one's usage: the charts of daily totals, and the log of single requests. */
export function UsageTabs({ current }: { current: (typeof TABS)[number]["href"] }) {
  return (
    <nav aria-label="Usage views" className="mt-4 flex gap-2 border-b border-slate-200 text-sm dark:border-slate-800">
      {TABS.map((t) => (
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
