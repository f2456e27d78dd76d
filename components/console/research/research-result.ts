import { z } from "zod";

/**
 * A finished research task as the console reads it (contract "Results"). Lists default to empty and
 * numbers to absent, so a result missing a part still renders what it has.
 */

export type ResearchKind = "dream-cascade" | "dream-swarm";

const Source = z.object({ title: z.string().default(""), url: z.string().optional(), source: z.string().default("") });
export type Source = z.infer<typeof Source>;

const TierUsage = z.object({
  calls: z.number().default(0),
  prompt_tokens: z.number().default(0),
  completion_tokens: z.number().default(0),
});

const Usage = z
  .object({
    by_tier: z.record(z.string(), TierUsage).default({}),
    prompt_tokens: z.number().default(0),
    completion_tokens: z.number().default(0),
    total_tokens: z.number().default(0),
    estimated_cost_usd: z.number().optional(),
  })
  .default({ by_tier: {}, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

const Agent = z.object({
  id: z.string(),
  role: z.string().default("worker"),
  subtask: z.string().optional(),
  type: z.string().optional(),
  tier: z.string().optional(),
  model: z.string().optional(),
  status: z.string().default("completed"),
  output: z.string().optional(),
  error: z.string().optional(),
  tool_calls: z
    .array(z.object({ tool: z.string(), ok: z.boolean().default(true), error: z.string().optional() }))
    .default([]),
  sources: z.array(Source).default([]),
  duration_ms: z.number().optional(),
});
export type AgentResult = z.infer<typeof Agent>;

const Synthesis = z.object({
  id: z.string(),
  agents: z.array(z.string()).default([]),
  tier: z.string().optional(),
  model: z.string().optional(),
  output: z.string().default(""),
  duration_ms: z.number().optional(),
});

const Timings = z.record(z.string(), z.union([z.string(), z.number()])).default({});

const common = {
  provider: z.string().optional(),
  budget_tier: z.string().optional(),
  agents: z.array(Agent).default([]),
  sources: z.array(Source).default([]),
  failures: z.array(z.object({ agent: z.string(), error: z.string() })).default([]),
  usage: Usage,
  timings: Timings,
};

export const ResearchResult = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("dream-cascade"),
    title: z.string().default(""),
    task: z.string().default(""),
    models: z.record(z.string(), z.string()).default({}),
    subtasks: z.array(z.string()).default([]),
    syntheses: z.array(Synthesis).default([]),
    executive_summary: z.string().default(""),
    ...common,
  }),
  z.object({
    kind: z.literal("dream-swarm"),
    query: z.string().default(""),
    answer: z.string().default(""),
    ...common,
  }),
]);
export type ResearchResult = z.infer<typeof ResearchResult>;

/**
 * A source's URL when it may be a link: http or https only, since sources are third-party text and a
 * `javascript:` or `data:` URL must never become clickable.
 */
export function safeHref(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Cost estimates are fractions of a cent per call: four decimals below a dollar. */
export function formatCost(usd: number | undefined): string {
  if (usd === undefined) return "not estimated";
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

export function formatMs(ms: number | string | undefined): string {
  if (typeof ms !== "number") return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** When a run started, in UTC to the second ("2026-12-05 08:13:11 UTC"); as given when it is not a time. */
export function formatStarted(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** The timings worth a row, in the order the work happens, with the label each gets. */
export const TIMING_ROWS = [
  ["duration_ms", "Total"],
  ["breakdown_ms", "Breakdown"],
  ["workers_ms", "Workers"],
  ["synthesis_ms", "Synthesis"],
  ["summary_ms", "Summary"],
] as const;
