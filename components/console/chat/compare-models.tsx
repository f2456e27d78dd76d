"use client";

import { useMemo, useState } from "react";
import type { Answer as Reply, Schemas } from "@/lib/client/index.ts";
import { consoleClient, dataOf } from "@/lib/console/api.ts";
import { chatBody, ChatSettings } from "@/lib/console/chat-request.ts";
import { usd } from "@/lib/portal/usage/summary.ts";
import { bestPrice, type Price } from "@/lib/usage/price-match.ts";

type Model = Pick<Reply<"get", "/v1/llm/models">["models"][number], "id" | "provider" | "default">;
export type PriceRow = { provider: string; model: string; input: number; output: number };
type Answer = Schemas["CompletionResponse"];
type Side = { label: string; answer?: Answer; error?: string; ms: number; cost: number | null };

const field =
  "rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

const nameOf = (m: Pick<Model, "provider" | "id">) => `${m.provider}/${m.id}`;

/** The estimate every usage page makes: the price table's entry for the model, else none known. */
function costOf(prices: ReadonlyMap<string, Map<string, Price>>, provider: string, model: string, a: Answer) {
  const models = prices.get(provider);
  const price = models && bestPrice(models, model);
  return price ? (a.usage.prompt_tokens * price[0] + a.usage.completion_tokens * price[1]) / 1_000_000 : null;
}

/**
 * One prompt to two models at once, with the system prompt and temperature of the settings: each answer
 * beside the other with its tokens, the time it took and its estimated cost.
 */
export function CompareModels({
  models,
  prices,
  system,
  temperature,
}: {
  models: Model[];
  prices: PriceRow[];
  system: string;
  temperature: string;
}) {
  const table = useMemo(() => {
    const byProvider = new Map<string, Map<string, Price>>();
    for (const p of prices) {
      const m = byProvider.get(p.provider) ?? new Map<string, Price>();
      m.set(p.model, [p.input, p.output]);
      byProvider.set(p.provider, m);
    }
    return byProvider;
  }, [prices]);
  const defaults = models.filter((m) => m.default);
  const [first, setFirst] = useState(defaults[0] ? nameOf(defaults[0]) : models[0] ? nameOf(models[0]) : "");
  const [second, setSecond] = useState(defaults[1] ? nameOf(defaults[1]) : models[1] ? nameOf(models[1]) : first);
  const [prompt, setPrompt] = useState("");
  const [sides, setSides] = useState<Side[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function ask(name: string): Promise<Side> {
    const model = models.find((m) => nameOf(m) === name)!;
    const settings = ChatSettings.parse({ provider: model.provider, model: model.id, system, temperature });
    const started = performance.now();
    try {
      const answer = await dataOf(
        consoleClient().POST("/v1/llm/chat", {
          body: chatBody(settings, [{ role: "user", content: prompt.trim() }]),
        }),
      );
      const ms = Math.round(performance.now() - started);
      return { label: name, answer, ms, cost: costOf(table, model.provider, model.id, answer) };
    } catch (err) {
      return { label: name, error: (err as Error).message, ms: Math.round(performance.now() - started), cost: null };
    }
  }

  async function compare() {
    const settings = ChatSettings.safeParse({ provider: "x", model: "x", system, temperature });
    if (!settings.success) return setProblem(settings.error.issues[0]?.message ?? "Check the settings above");
    if (!prompt.trim()) return setProblem("Write the prompt both models answer");
    setProblem(null);
    setBusy(true);
    setSides(null);
    setSides(await Promise.all([ask(first), ask(second)]));
    setBusy(false);
  }

  const picker = (label: string, value: string, set: (v: string) => void) => (
    <label className="flex flex-1 flex-col gap-1 text-sm font-medium">
      {label}
      <select className={field} value={value} onChange={(e) => set(e.target.value)}>
        {models.map((m) => (
          <option key={nameOf(m)} value={nameOf(m)}>
            {nameOf(m)}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section
      aria-labelledby="compare-title"
      className="rounded-xl border border-slate-300 p-4 lg:col-span-2 dark:border-slate-700"
    >
      <h2 id="compare-title" className="text-lg font-semibold">
        Compare two models
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        One prompt to both at once, with the system prompt and temperature set above. Each answer counts against your
        key&apos;s limits and usage.
      </p>
      <form
        className="mt-3 flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void compare();
        }}
      >
        <div className="flex flex-col gap-3 sm:flex-row">
          {picker("First model", first, setFirst)}
          {picker("Second model", second, setSecond)}
        </div>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Prompt to compare
          <textarea
            className={`${field} min-h-20`}
            value={prompt}
            maxLength={20_000}
            onChange={(e) => setPrompt(e.target.value)}
          />
        </label>
        <button
          type="submit"
          disabled={busy}
          className="self-start rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
        >
          {busy ? "Asking both…" : "Compare"}
        </button>
        {problem && (
          <p role="alert" className="text-sm text-red-800 dark:text-red-200">
            {problem}
          </p>
        )}
      </form>
      {sides && (
        <div className="mt-4 grid gap-4 md:grid-cols-2" data-testid="comparison">
          {sides.map((s, i) => (
            <article
              key={i}
              aria-label={`Answer ${i + 1}: ${s.label}`}
              className="min-w-0 rounded-lg bg-slate-100 p-3 dark:bg-slate-800"
            >
              <h3 className="font-medium break-all">{s.label}</h3>
              {s.answer ? (
                <>
                  <p className="mt-2 whitespace-pre-wrap break-words">{s.answer.content}</p>
                  <p className="mt-2 text-sm text-slate-700 dark:text-slate-300" data-testid="comparison-figures">
                    {s.answer.usage.total_tokens.toLocaleString("en-US")} tokens ({s.answer.usage.prompt_tokens} prompt,{" "}
                    {s.answer.usage.completion_tokens} completion) · {(s.ms / 1000).toFixed(1)} s ·{" "}
                    {s.cost === null ? "no price known" : `${usd(s.cost)} estimated`}
                  </p>
                </>
              ) : (
                <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-200">
                  {s.error}
                </p>
              )}
            </article>
          ))}
        </div>
      )}
    </section>
  );
}
