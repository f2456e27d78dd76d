import { Gauge } from "prom-client";
import { perRuntime } from "../../gateway/runtime/per-runtime.ts";
import { throttled } from "../../gateway/runtime/limits/throttled.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { MemoryBreakerBoard, type BreakerBoard } from "./breaker.ts";
import { DeploymentStats } from "./balance.ts";
import { setRoutingPrices } from "../../usage/prices.ts";
import { routingPrices, type Routing } from "./deployments.ts";
import { MinuteBudget } from "./minute-budget.ts";
import { ModelRouter, type AttemptRecord, type RouterOptions } from "./router.ts";

// At most one warning a minute while the shared breakers' Redis fails.
const BREAKER_WARN_EVERY_MS = 60_000;

type RouterSlot = {
  /** What every router of the runtime shares: its breakers and deployment statistics. */
  shared: Promise<RouterOptions>;
  /** The routing `current` was made from (none before the first model call). */
  routing?: Routing;
  current?: Promise<ModelRouter>;
  /** The last router made, for the breaker gauge, which is read synchronously. */
  latest?: ModelRouter;
};

const routerSlot: (rt: Runtime) => RouterSlot = perRuntime((rt) => {
  const slot: RouterSlot = { shared: sharedByRouters(rt, () => slot.latest) };
  return slot;
});

/**
 * Made on the first model call: breakers shared through Redis when REDIS_URL is set (so every instance
 * stops sending to a failing deployment), else in memory, closed with the runtime; attempts counted in
 * /metrics, and the current router's breakers shown there.
 */
async function sharedByRouters(rt: Runtime, current: () => ModelRouter | undefined): Promise<RouterOptions> {
  const breakers = await breakerBoard(rt);
  rt.onClose(() => breakers.close());
  new Gauge({
    name: "gateway_llm_breaker_open",
    help: "Whether a routing deployment's circuit breaker is open (1), half-open (0.5) or closed (0), as this instance sees it",
    labelNames: ["deployment"],
    registers: [rt.metrics.registry],
    collect() {
      this.reset();
      for (const [deployment, state] of current()?.breakerStates() ?? [])
        this.set({ deployment }, state === "open" ? 1 : state === "half-open" ? 0.5 : 0);
    },
  });
  return {
    breakers,
    stats: new DeploymentStats(),
    minutes: new MinuteBudget(),
    observe: (deployment, outcome, plan) => {
      rt.metrics.llmAttempts.inc({ deployment, outcome });
      if (outcome === "ok" && fellOver(plan.attempts))
        rt.metrics.llmFallbacks.inc({ alias: current()?.isAlias(plan.model) ? plan.model : NO_ALIAS, deployment });
    },
  };
}

/** The alias label of a model call that named provider/model: client-named models would be unbounded. */
export const NO_ALIAS = "none";

/**
 * Whether the answer just noted (the last attempt) came from another deployment than the first this run
 * reached (tried, or passed over: breaker open, over its minute, credential not set). Retries on one
 * deployment are not a fallback; a plan run again after an answer starts again after that answer.
 */
export function fellOver(attempts: readonly Pick<AttemptRecord, "deployment" | "outcome">[]): boolean {
  const answer = attempts.length - 1;
  let first = answer;
  while (first > 0 && attempts[first - 1]!.outcome !== "ok") first--;
  return attempts[first]!.deployment !== attempts[answer]!.deployment;
}

/**
 * The runtime's model router, made from `rt.config.routing` on the first model call and again on the
 * first call after `reloadRouting` replaced it: the healthy path compares one reference. A request keeps
 * the router it got, so one in flight during a reload finishes on the routing it started with.
 */
export function modelRouter(rt: Runtime): Promise<ModelRouter> {
  const slot = routerSlot(rt);
  if (slot.routing !== rt.config.routing || !slot.current) {
    const routing = (slot.routing = rt.config.routing);
    setRoutingPrices(routingPrices(routing));
    slot.current = slot.shared.then((shared) => (slot.latest = new ModelRouter(routing, shared)));
  }
  return slot.current;
}

/**
 * Puts a new routing in force on this runtime: what /v1/models lists, and the router model calls get
 * from their next call on. The new router shares the old one's breakers and statistics, so an open
 * breaker stays open. Only the runtime object changes: the portal's separately bundled server actions
 * reach the same router as the API (module state such as perRuntime's is not shared across bundles).
 */
export function reloadRouting(rt: Pick<Runtime, "config">, routing: Routing): void {
  rt.config.routing = routing;
}

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
