import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { GuideBody, outline } from "@/components/guides/guide-markdown";
import { catalogue, findGuide } from "@/components/guides/guides";

type Params = { params: Promise<{ slug: string }> };

// Read from docs/ when asked for; the slug is only ever looked up in the catalogue (components/guides/guides.ts).
export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const guide = findGuide((await params).slug);
  return { title: guide ? `${guide.title} · Docs` : "Docs" };
}

function Sections({ sections }: { sections: Array<{ id: string; text: string }> }) {
  return (
    <ul className="mt-2 flex flex-col gap-1 border-l border-slate-200 pl-3 dark:border-slate-800">
      {sections.map((s) => (
        <li key={s.id}>
          <a className="text-indigo-700 hover:underline dark:text-indigo-300" href={`#${s.id}`}>
            {s.text}
          </a>
        </li>
      ))}
    </ul>
  );
}

export default async function GuidePage({ params }: Params) {
  const guide = findGuide((await params).slug);
  if (!guide) notFound();
  const sections = outline(guide);
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <Link className="text-sm text-indigo-700 hover:underline dark:text-indigo-300" href="/docs">
        ← All docs
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight [overflow-wrap:anywhere]">{guide.title}</h1>
      <div className="lg:grid lg:grid-cols-[minmax(0,48rem)_14rem] lg:justify-between lg:gap-10">
        {sections.length > 1 && (
          <>
            {/* On a phone the outline folds away above the text; beside it from 1024 px. */}
            <details className="mt-4 rounded-lg border border-slate-200 px-3 py-2 text-sm lg:hidden dark:border-slate-800">
              <summary className="cursor-pointer font-medium">On this page</summary>
              <nav aria-label="On this page">
                <Sections sections={sections} />
              </nav>
            </details>
            <nav
              aria-label="On this page"
              className="hidden text-sm lg:sticky lg:top-4 lg:order-last lg:mt-6 lg:block lg:self-start"
            >
              <p className="font-semibold text-slate-700 dark:text-slate-300">On this page</p>
              <Sections sections={sections} />
            </nav>
          </>
        )}
        <article className="min-w-0" aria-label={guide.title}>
          <GuideBody guide={guide} catalogue={catalogue()} />
        </article>
      </div>
    </main>
  );
}
