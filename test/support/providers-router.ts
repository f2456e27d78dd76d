import { MemoryBreakerBoard } from "../../lib/llm/routing/breaker.ts";
import { ModelRouter } from "../../lib/llm/routing/router.ts";

/**
 * A model router with no routing file (each `provider/model` goes to its provider alone), for unit tests
 * of model callers: its retries come without a pause, and its breakers are its own.
 */
export const providersRouter = (): Promise<ModelRouter> =>
  Promise.resolve(
    new ModelRouter(
      { deployments: new Map(), aliases: new Map(), guardrails: new Map() },
      { breakers: new MemoryBreakerBoard(), wait: async () => true },
    ),
  );
