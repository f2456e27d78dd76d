import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { RequestMetrics } from "./request-metrics.ts";
import type { BudgetStatus } from "../../usage/budgets.ts";
import type { UsageCounters } from "./usage-metrics.ts";

export type GatewayMetrics = {
  registry: Registry;
  /** Requests and their durations by route template: counted on every request, so not prom-client's. */
  requests: RequestMetrics;
  rateLimited: Counter<"kind">;
  limitFallbacks: Counter<"reason">;
  meterBuffered: Gauge;
  meterDropped: Counter<"reason">;
  requestLogUnlogged: Counter;
  /** Model calls' attempts per routing deployment: ok, retried (same deployment again), failed (moved on or gave up), skipped. */
  llmAttempts: Counter<"deployment" | "outcome">;
  /** Model calls answered by another deployment than the first their plan reached, by alias and answering deployment. */
  llmFallbacks: Counter<"alias" | "deployment">;
  /** How long background tasks' work ran, by kind and final status, observed as each ends. */
  taskDurations: Histogram<"kind" | "outcome">;
  /** Guardrail checks that fired on a model call, by check and the action taken. */
  guardrailDecisions: Counter<"check" | "action">;
} & UsageCounters;

/** What the meter reports about events it holds and events it had to drop. */
export type MeterCounts = { pendingCount(): number; dropped: number; rejected: number; unlogged: number };

/** Upper bounds (s) of the task duration buckets: a batch of a few items to a research run's hour. */
const TASK_DURATION_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/** The budgets in memory (BudgetTracker), read when /metrics is. */
export type BudgetStandings = { standings(): Iterable<BudgetStatus & { lineage: string }> };

export type MetricsOptions = {
  budgets?: BudgetStandings;
  /** Series labelled by key (METRICS_PER_KEY): without it there are none, whatever the number of keys. */
  perKey?: boolean;
};

/** Prometheus series for /metrics. One registry per runtime so tests with several apps stay apart. */
export function createMetrics(meter: MeterCounts, options: MetricsOptions = {}): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestMetrics();
  requests.register(registry);
  if (options.perKey && options.budgets) registerBudgetRemaining(registry, options.budgets);
  return {
    registry,
    requests,
    rateLimited: new Counter({
      name: "gateway_rate_limited_total",
      help: "Requests refused with 429",
      labelNames: ["kind"],
      registers: [registry],
    }),
    limitFallbacks: new Counter({
      name: "gateway_rate_limit_fallback_total",
      help: "Requests whose limits were counted on this instance alone because Redis erred (error), was slow (timeout) or had just failed (unavailable)",
      labelNames: ["reason"],
      registers: [registry],
    }),
    meterBuffered: new Gauge({
      name: "gateway_usage_events_buffered",
      help: "Usage events recorded and not yet written to the database",
      registers: [registry],
      collect() {
        this.set(meter.pendingCount());
      },
    }),
    meterDropped: new Counter({
      name: "gateway_usage_events_dropped_total",
      help: "Usage events never written: buffer_full (the database was away too long) or rejected (the database refused that event)",
      labelNames: ["reason"],
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ reason: "buffer_full" }, meter.dropped);
        this.inc({ reason: "rejected" }, meter.rejected);
      },
    }),
    llmAttempts: new Counter({
      name: "gateway_llm_attempts_total",
      help: "Model call attempts per routing deployment (a provider's name for a provider/model no routing file declares): ok, retried, failed or skipped (breaker open, credential not set)",
      labelNames: ["deployment", "outcome"],
      registers: [registry],
    }),
    llmFallbacks: new Counter({
      name: "gateway_llm_fallbacks_total",
      help: "Model calls that fell over: answered by another deployment than the first their plan tried or passed over, by alias (none for a provider/model) and the deployment that answered (a provider's name for a provider/model no routing file declares)",
      labelNames: ["alias", "deployment"],
      registers: [registry],
    }),
    guardrailDecisions: new Counter({
      name: "gateway_guardrail_decisions_total",
      help: "Guardrail checks that fired on a model call's prompt, by check (pii) and the action the policy took (redact, block, flag)",
      labelNames: ["check", "action"],
      registers: [registry],
    }),
    taskDurations: new Histogram({
      name: "gateway_task_duration_seconds",
      help: "How long a background task's work ran in this process (research runs, batches, videos, archive jobs), by kind and final status (completed, failed, cancelled, budget_exceeded)",
      labelNames: ["kind", "outcome"],
      buckets: TASK_DURATION_BUCKETS,
      registers: [registry],
    }),
    llmTokens: new Counter({
      name: "gateway_llm_tokens_total",
      help: "Tokens of keyed model calls (requests, research agents, batch items) as their providers reported them, by provider, model (past 100 models of a provider: other) and direction (input, output)",
      labelNames: ["provider", "model", "direction"],
      registers: [registry],
    }),
    llmCost: new Counter({
      name: "gateway_llm_cost_usd_total",
      help: "Estimated USD of keyed model calls (requests, research agents, batch items): tokens at the price table's rates plus priced features billed beyond tokens such as web searches; unpriced models add nothing",
      labelNames: ["provider", "model"],
      registers: [registry],
    }),
    llmRequests: new Counter({
      name: "gateway_llm_requests_total",
      help: "Keyed requests answered by a provider, by provider, model, route template and status class (2xx, 4xx, 5xx)",
      labelNames: ["provider", "model", "route", "status_class"],
      registers: [registry],
    }),
    llmCache: new Counter({
      name: "gateway_llm_cache_total",
      help: "Model calls that asked for the response cache (Cache-Control), by route template and result (hit, semantic_hit, miss)",
      labelNames: ["route", "result"],
      registers: [registry],
    }),
    llmCacheSavedUsd: new Counter({
      name: "gateway_llm_cache_saved_usd_total",
      help: "Estimated USD the response cache's hits did not pay: each stored answer's tokens at the price table's rates for the model that first gave it",
      registers: [registry],
    }),
    modelLabels: new Map(),
    requestLogUnlogged: new Counter({
      name: "gateway_request_log_unlogged_total",
      help: "Keyed requests counted in the usage totals but given no request-log row: past REQUEST_LOG_ROWS_PER_KEY_SECOND",
      registers: [registry],
      collect() {
        this.reset();
        this.inc(meter.unlogged);
      },
    }),
  };
}

/**
 * gateway_budget_remaining{key,metric}: what each budgeted key (its rotation lineage, named by its first
 * key's id) has left this month in its budget's metric, negative once overspent without a hard stop.
 * Read from the tracker's memory when /metrics is scraped: nothing on the request path, no database.
 */
function registerBudgetRemaining(registry: Registry, budgets: BudgetStandings): void {
  new Gauge({
    name: "gateway_budget_remaining",
    help: "What a budgeted key (rotation lineage, by its first key's id) has left of its monthly budget, in the budget's metric (requests, tokens, cost in USD); negative when overspent without a hard stop. Only with METRICS_PER_KEY=true",
    labelNames: ["key", "metric"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { lineage, budget, used } of budgets.standings())
        this.set({ key: lineage, metric: budget.metric }, budget.limit - used);
    },
  });
}
