import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CLINICAL_DISCLAIMER, findCondition, listConditions } from "@/lib/api/clinical/conditions.ts";
import { conditionHtml } from "@/lib/api/clinical/content-service.ts";

type Params = { params: Promise<{ slug: string }> };

// Every condition is known at build time, so the pages are rendered once and served statically.
export const dynamicParams = false;

export function generateStaticParams(): Array<{ slug: string }> {
  return listConditions().map((c) => ({ slug: c.slug }));
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const condition = findCondition((await params).slug);
  return { title: condition ? `${condition.name} · Clinical reference` : "Clinical reference" };
}

export default async function ConditionPage({ params }: Params) {
  const condition = findCondition((await params).slug);
  if (!condition) notFound();
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <Link className="text-sm text-indigo-700 hover:underline dark:text-indigo-300" href="/clinical">
        ← All conditions
      </Link>
      <p className="mt-6 text-sm font-medium uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
        {condition.category} · ICD-10-CM {condition.icd10}
        {condition.icd11 ? ` · ICD-11 ${condition.icd11}` : ""}
      </p>
      <article
        className="mt-2 [&_h1]:text-4xl [&_h1]:font-bold [&_h1]:tracking-tight [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_li]:mt-1 [&_p]:mt-3 [&_p]:leading-7 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6"
        // Rendered from the shipped Markdown and passed through sanitize-html (lib/api/clinical/render.ts).
        dangerouslySetInnerHTML={{ __html: conditionHtml(condition) }}
      />
      <p className="mt-10 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        {CLINICAL_DISCLAIMER}
      </p>
    </main>
  );
}
