import Link from "next/link";
import { guideIndex } from "./guides";

/** The guides by topic, each with its title and first sentence: the top of /docs. */
export function GuideIndex() {
  const topics = guideIndex();
  return (
    <section aria-labelledby="guides-heading" className="mx-auto max-w-6xl px-4 pb-8 sm:px-6" data-testid="guides">
      <h2 id="guides-heading" className="text-2xl font-semibold">
        Guides
      </h2>
      <p className="mt-1 max-w-3xl text-slate-700 dark:text-slate-300">
        How to run the gateway, call it and operate it, from the Markdown files that ship with it.
      </p>
      <div className="mt-4 grid gap-x-8 gap-y-6 sm:grid-cols-2 lg:grid-cols-3">
        {topics.map((t) => {
          const id = `topic-${t.topic.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
          return (
            <section key={t.topic} aria-labelledby={id} className="min-w-0">
              <h3 id={id} className="text-sm font-semibold tracking-wide text-slate-700 uppercase dark:text-slate-300">
                {t.topic}
              </h3>
              <ul className="mt-2 flex flex-col gap-3">
                {t.guides.map((g) => (
                  <li key={g.slug}>
                    <Link
                      href={`/docs/guides/${g.slug}`}
                      className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
                    >
                      {g.title}
                    </Link>
                    {g.summary && (
                      <p className="text-sm text-slate-700 [overflow-wrap:anywhere] dark:text-slate-300">{g.summary}</p>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </section>
  );
}
