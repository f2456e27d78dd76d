import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found · Unified API Gateway", robots: { index: false } };

/**
 * Next's 404 for portal pages (a page's notFound(), e.g. an unknown clinical condition). Unknown paths
 * no page claims reach the catch-all route instead, which answers the same words (lib/next-route.ts);
 * API paths never get either: the gateway answers them with its JSON 404.
 */
export default function NotFound() {
  return (
    <main className="mx-auto max-w-5xl px-6 py-16">
      <p className="text-sm font-medium uppercase tracking-wide text-indigo-700 dark:text-indigo-300">404</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">This page could not be found</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-600 dark:text-slate-400">
        The address may be mistyped, or the page may have moved. API endpoints are listed in the reference.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600" href="/">
          Portal home
        </Link>
        <Link
          className="rounded-lg border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
          href="/docs"
        >
          API reference
        </Link>
      </div>
    </main>
  );
}
