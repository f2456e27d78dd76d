"use client";

import { useEffect, useMemo, useState } from "react";
import { tagSections, type OpenApiDocument } from "@/lib/portal/docs/openapi-view.ts";
import { OperationCard } from "./operation-card";

type Loaded = { doc: OpenApiDocument } | { error: string } | null;

/**
 * The API reference, drawn from this server's /openapi.json: the sections by tag, each operation with
 * its parameters, body and answers, and Try it, which sends from this page to this server with the one
 * key field at the top. The key lives in this component's state only: never storage or a cookie.
 */
export function ApiReference() {
  const [apiKey, setApiKey] = useState("");
  const [loaded, setLoaded] = useState<Loaded>(null);
  const sections = useMemo(() => (loaded && "doc" in loaded ? tagSections(loaded.doc) : []), [loaded]);

  useEffect(() => {
    let live = true;
    fetch("/openapi.json")
      .then(async (res) => {
        if (!res.ok) throw new Error(`the server answered ${res.status}`);
        return (await res.json()) as OpenApiDocument;
      })
      .then(
        (doc) => live && setLoaded({ doc }),
        (err: Error) => live && setLoaded({ error: err.message }),
      );
    return () => {
      live = false;
    };
  }, []);

  // A link to a section or an operation (#tag/llm) lands there once the sections exist.
  useEffect(() => {
    if (sections.length === 0 || !window.location.hash) return;
    document.getElementById(decodeURIComponent(window.location.hash.slice(1)))?.scrollIntoView();
  }, [sections]);

  return (
    <>
      <form
        className="mx-auto flex max-w-6xl flex-wrap items-end gap-3 px-4 sm:px-6"
        onSubmit={(e) => e.preventDefault()}
        autoComplete="off"
      >
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm font-medium">
          Your API key, for Try it
          <input
            type="password"
            name="try-it-key"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value.trim())}
            autoComplete="off"
            spellCheck={false}
            className="rounded-lg border border-slate-400 bg-white px-3 py-2 font-mono text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
          />
        </label>
        <p className="pb-2 text-sm text-slate-700 dark:text-slate-300">
          Kept only in this page’s memory: reloading forgets it.
        </p>
      </form>
      <div className="mx-auto mt-6 max-w-6xl px-4 pb-16 sm:px-6" data-testid="api-reference">
        {loaded === null && (
          <p role="status" className="animate-pulse text-slate-700 dark:text-slate-300">
            Loading the API reference…
          </p>
        )}
        {loaded && "error" in loaded && (
          <p role="alert" className="text-red-700 dark:text-red-400">
            The API description could not be loaded ({loaded.error}). Reload the page to try again.
          </p>
        )}
        {sections.length > 0 && (
          <div className="grid gap-8 lg:grid-cols-[15rem_minmax(0,1fr)]">
            <nav
              aria-label="API sections"
              className="lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto"
            >
              <details className="lg:hidden">
                <summary className="cursor-pointer font-medium">Sections ({sections.length})</summary>
                <SectionLinks sections={sections} />
              </details>
              <div className="hidden lg:block">
                <SectionLinks sections={sections} />
              </div>
            </nav>
            <div className="min-w-0 space-y-10">
              {sections.map((s) => (
                <section key={s.slug} id={s.anchor} aria-labelledby={`${s.anchor}-title`} className="scroll-mt-4">
                  <h2 id={`${s.anchor}-title`} className="text-2xl font-bold">
                    {s.name}
                  </h2>
                  <div className="mt-4 space-y-4">
                    {s.operations.map((op) => (
                      <OperationCard
                        key={op.anchor}
                        doc={(loaded as { doc: OpenApiDocument }).doc}
                        op={op}
                        apiKey={apiKey}
                      />
                    ))}
                  </div>
                </section>
              ))}
            </div>
          </div>
        )}
      </div>
    </>
  );
}

function SectionLinks({ sections }: { sections: { name: string; anchor: string; operations: unknown[] }[] }) {
  return (
    <ul className="mt-2 space-y-1 text-sm">
      {sections.map((s) => (
        <li key={s.anchor}>
          <a href={`#${s.anchor}`} className="text-indigo-700 underline underline-offset-2 dark:text-indigo-300">
            {s.name}
          </a>{" "}
          <span className="text-slate-700 dark:text-slate-300">({s.operations.length})</span>
        </li>
      ))}
    </ul>
  );
}
