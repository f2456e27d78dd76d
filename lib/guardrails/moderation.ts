// The moderation check: the prompt's texts sent to OpenAI's moderation endpoint (POST /v1/moderations,
// one result per text) on the gateway's own OpenAI upstream and key, the categories that fired kept by
// name and the highest score among them. Free of charge at OpenAI, but a round trip on every call.
import { z } from "zod";
import { readCappedText } from "../upstream/capped-body.ts";
import { callUpstream } from "../upstream/http.ts";
import { MODERATION_CATEGORIES, type ModerationCategory, type ModerationSettings } from "./remote-config.ts";
import { failure, type RemoteVerdict } from "./remote-verdict.ts";

/** How long a call waits for the endpoint: it answers in well under a second when it is well. */
const MODERATION_TIMEOUT_MS = 5000;
// Thirteen categories per text: a few kilobytes per text, so a megabyte is only a broken answer.
const ANSWER_MAX_BYTES = 1024 * 1024;

/** The endpoint's answer, as far as the check reads it; a category an older model leaves out is null or absent. */
const answerSchema = z.object({
  results: z
    .array(
      z.object({
        flagged: z.boolean(),
        categories: z.record(z.string(), z.boolean().nullable()),
        category_scores: z.record(z.string(), z.number()),
      }),
    )
    .min(1),
});

/** Where the endpoint is: the OpenAI upstream's origin (UPSTREAM_OPENAI_URL or OpenAI's own) and its key. */
type ModerationEndpoint = { origin: string; apiKey: string };

/**
 * `texts` as the moderation endpoint sees them: a category fires when the endpoint marks it (its
 * `flagged` per category) or, with a threshold, when its score reaches it; only the policy's categories
 * count when it names some.
 */
export async function moderate(
  texts: readonly string[],
  settings: ModerationSettings,
  endpoint: ModerationEndpoint,
): Promise<RemoteVerdict> {
  let answer: z.output<typeof answerSchema>;
  try {
    const res = await callUpstream(
      "openai moderation",
      `${endpoint.origin}/v1/moderations`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${endpoint.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model: settings.model, input: texts }),
      },
      MODERATION_TIMEOUT_MS,
    );
    const text = await readCappedText(res, "openai moderation", ANSWER_MAX_BYTES);
    if (!res.ok) return { kind: "failed", why: `status ${res.status}`, detail: text.slice(0, 300) };
    const parsed = answerSchema.safeParse(JSON.parse(text));
    if (!parsed.success)
      return { kind: "failed", why: "an answer that is not a moderation result", detail: parsed.error.message };
    answer = parsed.data;
  } catch (err) {
    return failure(err, MODERATION_TIMEOUT_MS);
  }
  const watched = settings.categories ?? MODERATION_CATEGORIES;
  const fired = new Set<ModerationCategory>();
  let score = 0;
  for (const result of answer.results)
    for (const category of watched) {
      const categoryScore = result.category_scores[category] ?? 0;
      const hit =
        settings.threshold === undefined ? result.categories[category] === true : categoryScore >= settings.threshold;
      if (!hit) continue;
      fired.add(category);
      score = Math.max(score, categoryScore);
    }
  if (fired.size === 0) return { kind: "pass" };
  const names = [...fired];
  return {
    kind: "found",
    found: Object.fromEntries(names.map((name) => [name, 1])),
    score,
    why: `the prompt was flagged by the moderation check (${names.join(", ")}; score ${round(score)})`,
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
