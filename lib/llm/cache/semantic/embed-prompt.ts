// A prompt's embedding for the semantic cache, made as the caller: through the model router with the
// calling key's model rules and its owner's provider keys (as any call of theirs), under the request's
// deadline, and metered to the key as a usage event of its own beside the request's, so what the
// cache's embeddings cost shows in the key's usage, budget and spend like any other call.
import type { Call } from "../../../gateway/pipeline/call.ts";
import { recordUsage } from "../../../gateway/http/guard.ts";
import { embedOn } from "../../call/embed.ts";
import { llmTimeoutMs } from "../../chat.ts";
import { requestAnswerId } from "../../compat/target.ts";
import { ownerCandidates } from "../../routing/runtime-owner-keys.ts";
import { modelRouter } from "../../routing/runtime-router.ts";

/** The usage event's method: work the gateway did for the request, as an agent's call is "AGENT". */
export const SEMANTIC_EMBED_METHOD = "EMBED";

export async function embedPrompt(c: Call, model: string, prompt: string): Promise<Float32Array> {
  const started = performance.now();
  const router = await modelRouter(c.runtime);
  const id = requestAnswerId("emb-", c.requestId);
  const rules = c.key?.models;
  const plan = router.plan(model, { id, ...(rules && { rules }) });
  plan.candidates = await ownerCandidates(c.runtime, c.key?.userId, plan.candidates);
  if (c.trace) {
    plan.trace = c.trace;
    plan.operation = "embeddings";
  }
  const ms = llmTimeoutMs();
  const stop = c.stop(ms);
  try {
    const { value } = await router.run(
      plan,
      (target, attemptStop) => embedOn(target, [prompt], attemptStop),
      stop,
      Date.now() + ms,
    );
    if (c.key)
      recordUsage(c.runtime, {
        keyId: c.key.id,
        requestId: `${c.requestId}:semantic-cache`,
        method: SEMANTIC_EMBED_METHOD,
        route: c.route,
        area: c.area,
        status: 200,
        latencyMs: performance.now() - started,
        bytesIn: 0,
        bytesOut: 0,
        provider: value.provider,
        model: value.model,
        promptTokens: value.tokens,
        completionTokens: 0,
        at: new Date(),
      });
    return Float32Array.from(value.embeddings[0] ?? []);
  } finally {
    stop.release();
  }
}
