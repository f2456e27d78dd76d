"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** A header link that marks the current section (aria-current) for screen readers and the eye. */
export function NavLink({ href, children }: { href: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const current = href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      className="rounded-md px-2 py-1 hover:bg-slate-100 aria-[current=page]:font-semibold aria-[current=page]:text-indigo-800 dark:hover:bg-slate-800 dark:aria-[current=page]:text-indigo-200"
    >
      {children}
    </Link>
  );
}
