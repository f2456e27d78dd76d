import { Gauge } from "prom-client";
import { perRuntime } from "../../gateway/runtime/per-runtime.ts";
import { throttled } from "../../gateway/runtime/limits/throttled.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { MemoryBreakerBoard, type BreakerBoard } from "./breaker.ts";
import { ModelRouter } from "./router.ts";

// At most one warning a minute while the shared breakers' Redis fails.
const BREAKER_WARN_EVERY_MS = 60_000;

/**
 * The runtime's one model router, made on the first model call: its breakers shared through Redis when
 * REDIS_URL is set (so every instance stops sending to a failing deployment), else in memory; closed
 * with the runtime. Its attempts are counted in /metrics, and its breakers shown there.
 */
export const modelRouter: (rt: Runtime) => Promise<ModelRouter> = perRuntime(async (rt) => {
  const breakers = await breakerBoard(rt);
  const router = new ModelRouter(rt.config.routing, {
    breakers,
    observe: (deployment, outcome) => rt.metrics.llmAttempts.inc({ deployment, outcome }),
  });
  rt.onClose(() => router.close());
  new Gauge({
    name: "gateway_llm_breaker_open",
    help: "Whether a routing deployment's circuit breaker is open (1), half-open (0.5) or closed (0), as this instance sees it",
    labelNames: ["deployment"],
    registers: [rt.metrics.registry],
    collect() {
      this.reset();
      for (const [deployment, state] of router.breakerStates())
        this.set({ deployment }, state === "open" ? 1 : state === "half-open" ? 0.5 : 0);
    },
  });
  return router;
});

async function breakerBoard(rt: Runtime): Promise<BreakerBoard> {
  const options = rt.config.breakers;
  if (!rt.config.redisUrl) return new MemoryBreakerBoard(options);
  let lastError: unknown;
  const warn = throttled(BREAKER_WARN_EVERY_MS, (skipped) =>
    rt.logger.warn(
      { err: lastError, skipped },
      "model routing breakers: Redis failed; counting failures on this instance",
    ),
  );
  const { connectRedisBreakers } = await import("./breaker-redis.ts");
  try {
    return await connectRedisBreakers(rt.config.redisUrl, {
      ...options,
      onError: (err) => {
        lastError = err;
        warn();
      },
    });
  } catch (err) {
    // Model calls go on without shared breakers rather than failing with Redis.
    rt.logger.warn({ err }, "model routing breakers: Redis did not answer at start; breakers kept on this instance");
    return new MemoryBreakerBoard(options);
  }
}
