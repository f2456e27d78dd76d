import type { Metadata } from "next";
import { ApiReference } from "@/components/docs/api-reference";
import { GuideIndex } from "@/components/guides/guide-index";

export const metadata: Metadata = { title: "Docs · Unified API Gateway" };

// The guides are read from docs/ when the page is asked for (every portal page is rendered per request).
export const dynamic = "force-dynamic";

export default function DocsPage() {
  return (
    <>
      <header className="mx-auto max-w-6xl px-4 pt-8 pb-4 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">Docs</h1>
        <p className="mt-2 max-w-3xl text-slate-700 dark:text-slate-300">
          The guides, then the{" "}
          <a className="underline" href="#api-reference">
            API reference
          </a>{" "}
          of every operation of this server.
        </p>
      </header>
      <GuideIndex />
      <section aria-labelledby="api-reference" className="border-t border-slate-200 dark:border-slate-800">
        <div className="mx-auto max-w-6xl px-4 pt-8 pb-4 sm:px-6">
          <h2 id="api-reference" className="scroll-mt-4 text-2xl font-semibold">
            API reference
          </h2>
          <p className="mt-2 max-w-3xl text-slate-700 dark:text-slate-300">
            Every operation of this server, from its{" "}
            <a className="underline" href="/openapi.json">
              OpenAPI description
            </a>
            . Paste a key below to try any operation from this page.
          </p>
        </div>
        <ApiReference />
      </section>
    </>
  );
}
