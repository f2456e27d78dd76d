// An embeddings call on the deployment the model router chose, as completeOn is a chat's: the target's
// credential and origin (a routing file's key pool or other origin), over the same keep-alive pool.
import { z } from "zod";
import { GatewayError } from "../../errors.ts";
import type { CallStop } from "../../upstream/call-stop.ts";
import { upstreamOrigin } from "../../upstream/origin.ts";
import { embedOnRunner, type Embedded } from "../embeddings.ts";
import type { ChatTarget } from "./index.ts";
import { postToProvider, readAnswer } from "./provider-http.ts";

const EmbeddingList = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().optional() })),
  usage: z.object({ prompt_tokens: z.number().optional() }).nullish(),
});

/**
 * The texts embedded by the target's provider and model: OpenAI's `POST /embeddings` on every provider
 * speaking its wire, Ollama's own /api/embed on a runner. `stop` bounds the call; the caller releases it.
 */
export async function embedOn(target: ChatTarget, texts: string[], stop: CallStop): Promise<Embedded> {
  const { entry, modelId } = target;
  if (entry.name === "ollama") {
    const url = entry.fixedOrigin ?? upstreamOrigin("ollama", entry.origin);
    return embedOnRunner(texts, modelId, stop.signal, { url, default: true });
  }
  if (entry.wire === "anthropic") throw new GatewayError(400, `${entry.name} does not serve embeddings`);
  const body = { model: modelId, input: texts, encoding_format: "float" };
  const answer = await readAnswer<unknown>(entry, await postToProvider(entry, "/embeddings", body, stop));
  return { ...embeddingsIn(entry.name, answer, texts.length), model: modelId, provider: entry.name };
}

/**
 * An OpenAI embedding list's vectors in the order of the texts (by `index` where the provider gives it)
 * and its token count; one that does not hold one vector per text is the provider's fault, a 502.
 */
export function embeddingsIn(
  provider: string,
  answer: unknown,
  count: number,
): { embeddings: number[][]; tokens: number } {
  const list = EmbeddingList.safeParse(answer);
  if (!list.success || list.data.data.length !== count)
    throw new GatewayError(502, `${provider} answered with something other than one embedding per text`);
  const ordered = list.data.data.every((d) => d.index !== undefined)
    ? [...list.data.data].sort((a, b) => a.index! - b.index!)
    : list.data.data;
  return { embeddings: ordered.map((d) => d.embedding), tokens: list.data.usage?.prompt_tokens ?? 0 };
}
