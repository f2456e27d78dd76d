import type { Metadata } from "next";
import Link from "next/link";
import { CONSOLES, ConsoleAllowance, ConsoleNav } from "@/components/console/console-shell";

export const metadata: Metadata = { title: "Consoles · Unified API Gateway" };

export default function ConsolesPage() {
  return (
    <>
      <ConsoleNav current="/console" />
      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">Consoles</h1>
        <p className="mt-2 max-w-3xl text-slate-700 dark:text-slate-300">
          Try the API from the browser. Consoles call it as you, with your portal session: no key needed.
        </p>
        <ConsoleAllowance />
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {CONSOLES.map((c) => (
            <li key={c.href}>
              <Link
                href={c.href}
                className="block h-full rounded-xl border border-slate-300 p-5 hover:border-indigo-600 dark:border-slate-700"
              >
                <span className="text-lg font-semibold">{c.label}</span>
                <span className="mt-1 block text-slate-700 dark:text-slate-300">{c.about}</span>
              </Link>
            </li>
          ))}
        </ul>
      </main>
    </>
  );
}
