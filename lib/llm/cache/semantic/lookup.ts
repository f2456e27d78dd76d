// The semantic cache's part in one request: its question's prompt embedded once (as the caller, see
// embed-prompt.ts), the nearest earlier question of the same scope and partition looked up with it, and
// on a miss the vector kept beside the answer the provider gave. The embedding failing (no embedding
// provider configured, a provider error) leaves the request to the exact cache alone, logged once.
import type { Call } from "../../../gateway/pipeline/call.ts";
import type { SemanticPolicy } from "../../routing/config.ts";
import { embedPrompt } from "./embed-prompt.ts";
import { semanticQuestion, type SemanticQuestion } from "./question.ts";
import { semanticCache } from "./semantic-cache.ts";
import type { Neighbour } from "./vector-index.ts";

export class SemanticLookup {
  #vector: Promise<Float32Array | undefined> | undefined;

  constructor(
    private readonly c: Call,
    private readonly question: SemanticQuestion,
    private readonly embeddingModel: string,
    private readonly threshold: number,
  ) {}

  /** Starts embedding the prompt, for a request that reads nothing but will keep its answer (no-cache). */
  prepare(): void {
    void this.vector();
  }

  /** The nearest earlier question at or above the threshold, if any. */
  async nearest(scope: string): Promise<Neighbour | undefined> {
    const vector = await this.vector();
    if (!vector) return undefined;
    const near = await semanticCache(this.c.runtime).nearest(scope, this.question.partition, vector);
    return near && near.similarity >= this.threshold ? near : undefined;
  }

  forget(id: bigint): void {
    semanticCache(this.c.runtime).forget(id);
  }

  /** Keeps this question's vector, pointing at the answer stored under `answerKey`; off the answer's path. */
  keep(scope: string, answerKey: string, expiresAt: number): void {
    const { runtime } = this.c;
    void this.vector()
      .then(
        (vector) =>
          vector &&
          semanticCache(runtime).keep({ scope, partition: this.question.partition, answerKey, expiresAt, vector }),
      )
      .catch((err) => runtime.logger.warn({ err }, "keeping a semantic cache vector failed"));
  }

  private vector(): Promise<Float32Array | undefined> {
    return (this.#vector ??= embedPrompt(this.c, this.embeddingModel, this.question.prompt).catch((err) => {
      this.c.runtime.logger.warn(
        { err, requestId: this.c.requestId, model: this.embeddingModel },
        "the semantic cache could not embed the prompt; answering without it",
      );
      return undefined;
    }));
  }
}

/** The semantic part of a chat request's cache under an alias's policy; undefined when the request is not one it matches. */
export function semanticLookup(
  c: Call,
  model: string,
  body: object,
  policy: SemanticPolicy,
): SemanticLookup | undefined {
  const defaults = c.runtime.config.answerCache.semantic;
  const embeddingModel = policy.embeddingModel ?? defaults.embeddingModel;
  const question = semanticQuestion(model, body, {
    embeddingModel,
    tools: policy.tools,
    anyTemperature: policy.anyTemperature,
  });
  return question && new SemanticLookup(c, question, embeddingModel, policy.threshold ?? defaults.threshold);
}
