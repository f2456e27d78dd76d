import { CapabilityGrid } from "@/components/capability-grid";

const SAMPLE = `curl -H "X-API-Key: $API_KEY" http://localhost:3000/v1/key`;

export default function HomePage() {
  return (
    <main className="mx-auto max-w-5xl px-6 py-16">
      <p className="text-sm font-medium uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
        Developer portal
      </p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Unified API Gateway</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-600 dark:text-slate-400">
        One API key for language models, research agents, public data sources, reference data and utilities — with
        per-key limits and usage you can see.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <a
          className="rounded-lg bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-500"
          href="/openapi.json"
        >
          OpenAPI description
        </a>
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- /health is the API's JSON (the catch-all route), not a page */}
        <a
          className="rounded-lg border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
          href="/health"
        >
          Service health
        </a>
      </div>
      <section className="mt-12">
        <h2 className="text-xl font-semibold">What you can call</h2>
        <div className="mt-4">
          <CapabilityGrid />
        </div>
      </section>
      <section className="mt-12">
        <h2 className="text-xl font-semibold">Try it</h2>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          Send your key in the <code>X-API-Key</code> header. Each key has 10,000 requests a day (reset at midnight
          UTC), 100 a minute and 10 at once.
        </p>
        <pre className="mt-4 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">{SAMPLE}</pre>
      </section>
    </main>
  );
}
