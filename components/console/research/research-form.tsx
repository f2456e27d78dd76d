"use client";

import { useState } from "react";
import { AGENT_LIMITS, type Budget, type ResearchForm as Form } from "./research-api";
import type { ResearchKind } from "./research-result";

const field =
  "rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const label = "flex flex-col gap-1 text-sm font-medium";

/** What to research and how: a cascade (task, title) or a swarm (query), with agents, budget and provider. */
export function ResearchForm({
  providers,
  busy,
  onStart,
}: {
  providers: string[];
  busy: boolean;
  onStart: (form: Form) => void;
}) {
  const [kind, setKind] = useState<ResearchKind>("dream-cascade");
  const [text, setText] = useState("");
  const [title, setTitle] = useState("");
  const [agents, setAgents] = useState(AGENT_LIMITS["dream-cascade"].default);
  const [budget, setBudget] = useState<Budget>("balanced");
  const [provider, setProvider] = useState("");
  const limits = AGENT_LIMITS[kind];
  const chosenProvider = provider || (providers.includes("xai") ? "xai" : (providers[0] ?? "xai"));
  const cascade = kind === "dream-cascade";

  return (
    <form
      aria-labelledby="research-form-heading"
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) onStart({ kind, text, title, agents, budget, provider: chosenProvider });
      }}
    >
      <h2 id="research-form-heading" className="text-xl font-semibold">
        Start a research task
      </h2>
      <fieldset className="flex flex-wrap gap-4 text-sm" disabled={busy}>
        <legend className="mb-1 font-medium">Workflow</legend>
        {(
          [
            ["dream-cascade", "Dream cascade (workers → synthesizers → summary)"],
            ["dream-swarm", "Dream swarm (search agents → merged answer)"],
          ] as const
        ).map(([value, name]) => (
          <label key={value} className="flex items-center gap-2">
            <input
              type="radio"
              name="kind"
              value={value}
              checked={kind === value}
              onChange={() => {
                setKind(value);
                setAgents(AGENT_LIMITS[value].default);
              }}
            />
            {name}
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-col gap-3" disabled={busy}>
        <legend className="sr-only">What to research</legend>
        <label className={label}>
          {cascade ? "Task" : "Query"}
          <textarea
            className={`${field} min-h-24`}
            value={text}
            required
            maxLength={limits.textMax}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        {cascade && (
          <label className={label}>
            Title (optional)
            <input className={field} value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
          </label>
        )}
        <div className="grid gap-3 sm:grid-cols-3">
          <label className={label}>
            Agents (1–{limits.max})
            <input
              className={field}
              type="number"
              min={1}
              max={limits.max}
              value={agents}
              onChange={(e) => setAgents(Math.min(limits.max, Math.max(1, Math.round(Number(e.target.value)) || 1)))}
            />
          </label>
          <label className={label}>
            Budget tier
            <select className={field} value={budget} onChange={(e) => setBudget(e.target.value as Budget)}>
              <option value="cheap">Cheap</option>
              <option value="balanced">Balanced</option>
              <option value="premium">Premium</option>
            </select>
          </label>
          <label className={label}>
            Provider
            <select className={field} value={chosenProvider} onChange={(e) => setProvider(e.target.value)}>
              {(providers.length ? providers : ["xai"]).map((p) => (
                <option key={p}>{p}</option>
              ))}
            </select>
          </label>
        </div>
      </fieldset>
      <button
        type="submit"
        disabled={busy || !text.trim()}
        className="self-start rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
      >
        Start
      </button>
    </form>
  );
}
