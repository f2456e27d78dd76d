import type { ReactNode } from "react";

/** The frame of the sign-in pages: one narrow card, centred, in the portal's look. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-xl px-4 py-10 sm:py-16">
      <div className="rounded-2xl border border-slate-300 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-700 dark:bg-slate-900">
        <h1 className="text-3xl font-bold">{title}</h1>
        {children}
      </div>
    </main>
  );
}
