"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formB, SentenceRequest, SOURCE_CHOICES, type AacSymbol } from "@/lib/console/aac.ts";
import { consoleClient, dataOf } from "@/lib/console/api.ts";
import { ErrorState } from "../error-state";
import { stripToPng } from "./export";

const MAX_ALTERNATES = 8;
const field =
  "rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

function symbolLabel(s: AacSymbol): string {
  return `${s.keyword} (${s.source}${s.license ? `, ${s.license}` : ""})`;
}

export function AacConsole() {
  const [sentence, setSentence] = useState("");
  const [sources, setSources] = useState<(typeof SOURCE_CHOICES)[number]["value"]>("local");
  const [invalid, setInvalid] = useState<string | null>(null);
  /** Per word, the icon_url of the symbol picked among its alternates (null: the best one that loads). */
  const [choice, setChoice] = useState<(string | null)[]>([]);
  /** Icons the browser could not load (the pictogram library's host down, a 404): never shown, never a match. */
  const [broken, setBroken] = useState<ReadonlySet<string>>(new Set());
  const [exporting, setExporting] = useState(false);
  const [download, setDownload] = useState<string | null>(null);

  const build = useMutation({
    mutationFn: async (body: { sentence: string; sources: string }) =>
      formB(await dataOf(consoleClient().POST("/v1/aac/sentence", { body: { ...body, language: "en" } }))),
    onSuccess: (result) => {
      setChoice(result.words.map(() => null));
      setDownload(null);
    },
  });

  const markBroken = (url: string) => setBroken((old) => (old.has(url) ? old : new Set(old).add(url)));
  const usable = (build.data?.words ?? []).map((w) => w.symbols.filter((s) => !broken.has(s.icon_url)));
  const cards = (build.data?.words ?? []).map((w, i) => ({
    word: w.word,
    symbol: usable[i]!.find((s) => s.icon_url === choice[i]) ?? usable[i]![0] ?? null,
  }));
  // Counted from what shows: a word whose every symbol failed to load has no symbol on the strip.
  const matched = cards.filter((c) => c.symbol).length;
  const coverage = cards.length ? Math.round((matched / cards.length) * 1000) / 10 : 0;
  const brokenWords = (build.data?.words ?? []).filter((w) => w.symbols.some((s) => broken.has(s.icon_url))).length;

  const exportPng = async () => {
    setExporting(true);
    try {
      const blob = await stripToPng(cards.map((c) => ({ word: c.word, iconUrl: c.symbol?.icon_url ?? null })));
      if (download) URL.revokeObjectURL(download);
      const url = URL.createObjectURL(blob);
      setDownload(url);
      const a = document.createElement("a");
      a.href = url;
      a.download = "aac-sentence.png";
      a.click();
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      {/* Printing (or saving as PDF) gives the strip alone: the site header is outside this component. */}
      <style>{"@media print { body > header { display: none; } }"}</style>
      <form
        className="flex flex-col gap-3 print:hidden sm:flex-row sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = SentenceRequest.safeParse({ sentence, sources });
          setInvalid(parsed.success ? null : (parsed.error.issues[0]?.message ?? "invalid"));
          if (parsed.success) build.mutate(parsed.data);
        }}
      >
        <label className="flex flex-1 flex-col gap-1 text-sm font-medium">
          Sentence
          <input
            className={field}
            value={sentence}
            maxLength={500}
            onChange={(e) => setSentence(e.target.value)}
            placeholder="I want to eat an apple"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Symbols from
          <select className={field} value={sources} onChange={(e) => setSources(e.target.value as typeof sources)}>
            {SOURCE_CHOICES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          disabled={build.isPending}
          className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
        >
          {build.isPending ? "Building…" : "Build"}
        </button>
      </form>
      {invalid && (
        <p role="alert" className="text-red-800 dark:text-red-200">
          {invalid}
        </p>
      )}
      {build.isError && <ErrorState error={build.error} what="The AAC sentence builder" />}

      {build.data && (
        <section aria-labelledby="strip-heading" className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
            <h2 id="strip-heading" className="text-xl font-semibold">
              Pictogram strip
            </h2>
            <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="coverage">
              {matched} of {cards.length} words have a symbol ({coverage}%)
            </p>
            <div className="flex gap-2">
              <button
                type="button"
                onClick={() => void exportPng()}
                disabled={exporting}
                className="rounded-lg border border-slate-400 px-3 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
              >
                {exporting ? "Drawing…" : "Export PNG"}
              </button>
              <button
                type="button"
                onClick={() => window.print()}
                className="rounded-lg border border-slate-400 px-3 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
              >
                Print or save as PDF
              </button>
            </div>
          </div>
          {brokenWords > 0 && (
            <p
              role="status"
              data-testid="broken-images"
              className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 print:hidden dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
            >
              Some pictures could not be loaded
              {sources === "local" ? "" : " (the pictogram library's image host did not answer)"}: {brokenWords}{" "}
              {brokenWords === 1 ? "word shows" : "words show"} another symbol or the word alone.
              {sources === "local" ? "" : " “Local symbols” uses only the symbols this server ships."}
            </p>
          )}
          {download && (
            <p className="text-sm print:hidden">
              <a href={download} download="aac-sentence.png" className="underline" data-testid="png-link">
                Download the PNG again
              </a>
            </p>
          )}
          <ol aria-label="Pictograms" className="flex flex-wrap gap-3" data-testid="strip">
            {cards.map((c, i) => (
              <li
                key={i}
                className="flex w-32 flex-col items-center rounded-xl border-2 border-slate-400 bg-white p-2 text-slate-900 break-inside-avoid"
              >
                {c.symbol ? (
                  // eslint-disable-next-line @next/next/no-img-element -- symbols are SVGs from the API or the library's host, shown as they are
                  <img
                    key={c.symbol.icon_url}
                    src={c.symbol.icon_url}
                    alt={c.symbol.keyword}
                    onError={() => markBroken(c.symbol!.icon_url)}
                    className="h-24 w-24 object-contain"
                  />
                ) : (
                  // The fallback tile: the word itself, large, where a picture would be.
                  <span
                    data-testid="text-tile"
                    className="flex h-24 w-24 flex-col items-center justify-center rounded-lg border-2 border-dashed border-slate-400 text-center"
                  >
                    <span className="text-2xl font-bold break-all">{c.word}</span>
                    <span className="text-xs text-slate-700">no symbol</span>
                  </span>
                )}
                <span className="mt-1 text-lg font-semibold">{c.word}</span>
              </li>
            ))}
          </ol>
          <div className="flex flex-col gap-4 print:hidden">
            <h3 className="font-semibold">Choose symbols</h3>
            {build.data.words.map((w, i) =>
              usable[i]!.length > 1 ? (
                <fieldset key={i} className="flex flex-wrap items-center gap-2">
                  <legend className="mb-1 text-sm font-medium">“{w.word}”</legend>
                  {usable[i]!.slice(0, MAX_ALTERNATES).map((s) => (
                    <button
                      key={`${s.source}-${s.icon_url}`}
                      type="button"
                      aria-pressed={cards[i]!.symbol?.icon_url === s.icon_url}
                      aria-label={symbolLabel(s)}
                      title={s.attribution ?? symbolLabel(s)}
                      onClick={() => setChoice((old) => old.map((v, k) => (k === i ? s.icon_url : v)))}
                      className="rounded-lg border-2 border-slate-300 bg-white p-1 aria-pressed:border-indigo-700 aria-pressed:ring-2 aria-pressed:ring-indigo-700"
                    >
                      {/* eslint-disable-next-line @next/next/no-img-element -- as above */}
                      <img
                        src={s.icon_url}
                        alt=""
                        onError={() => markBroken(s.icon_url)}
                        className="h-12 w-12 object-contain"
                      />
                    </button>
                  ))}
                </fieldset>
              ) : null,
            )}
          </div>
          {cards.some((c) => c.symbol?.attribution) && (
            <p className="text-xs text-slate-700 dark:text-slate-300">
              {[...new Set(cards.map((c) => c.symbol?.attribution).filter(Boolean))].join(" · ")}
            </p>
          )}
        </section>
      )}
    </div>
  );
}
