import type { Metadata } from "next";
import Link from "next/link";
import { CATEGORIES, CLINICAL_DISCLAIMER, listConditions } from "@/lib/api/clinical/conditions.ts";
import { conditionPageUrl } from "@/lib/api/clinical/content-service.ts";

export const metadata: Metadata = { title: "Clinical conditions · Unified API Gateway" };

export default function ClinicalIndexPage() {
  const conditions = listConditions();
  return (
    <main className="mx-auto max-w-5xl px-6 py-16">
      <p className="text-sm font-medium uppercase tracking-wide text-indigo-700 dark:text-indigo-300">
        Clinical reference
      </p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Communication-related conditions</h1>
      <p className="mt-4 max-w-2xl text-slate-600 dark:text-slate-400">
        {conditions.length} conditions a speech-language or AAC clinician meets, each with its communication profile,
        AAC strategies, treatments and ICD-10-CM / ICD-11 codes. Also available as JSON at{" "}
        <code>/v1/clinical/conditions</code>.
      </p>
      <p className="mt-4 max-w-2xl rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
        {CLINICAL_DISCLAIMER}
      </p>
      {CATEGORIES.map((category) => {
        const inCategory = conditions.filter((c) => c.category === category);
        if (inCategory.length === 0) return null;
        return (
          <section key={category} className="mt-10">
            <h2 className="text-xl font-semibold capitalize">{category}</h2>
            <ul className="mt-3 grid gap-2 sm:grid-cols-2">
              {inCategory.map((c) => (
                <li key={c.slug}>
                  <Link
                    className="text-indigo-700 hover:underline dark:text-indigo-300"
                    href={conditionPageUrl(c.slug)}
                  >
                    {c.name}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </main>
  );
}
