import { RateLimitError } from "../../errors.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { recordUsage, spendRefusal } from "../../gateway/http/guard.ts";
import { reserveKeyTokens } from "../../gateway/pipeline/token-reservation.ts";
import type { TokenReservation } from "../../gateway/runtime/limits/limiter.ts";
import { keyById } from "../../tools/admission.ts";
import { BudgetExceeded } from "../../jobs/budget-exceeded.ts";
import type { JobOwner } from "../../jobs/runner.ts";
import { FINAL_STATUSES, lineageKeys, type Task, type TaskTransaction } from "../../jobs/task-store.ts";
import type { ChatMessage, CompletionResponse } from "../../llm/chat-types.ts";
import { completeChat, llmTimeoutMs, type ChatRequest } from "../../llm/chat.ts";
import { llmRouteModels } from "../../llm/llm-route-models.ts";
import type { ModelRouter } from "../../llm/routing/router.ts";
import { modelRouter } from "../../llm/routing/runtime-router.ts";
import { CallStop } from "../../upstream/call-stop.ts";

export const BATCH_KIND = "llm.batch";
/** Items of one batch in flight at once, so a batch never starves the instance's other work. */
const ITEM_CONCURRENCY = 4;
/**
 * How often a running batch writes its progress. Each write reads the task back, input included (up to
 * 1,000 requests, megabytes), and with PGlite that is tens of milliseconds on this thread: written per
 * item, a large batch spent most of its time rewriting a number.
 */
const PROGRESS_EVERY_MS = 1000;

/**
 * Lets timers and other requests run between items. With PGlite every query resolves in microtasks, so
 * an item that fails before any I/O (an unreachable provider, a refusal of our own) and its writes would
 * otherwise run item after item without giving the event loop a turn.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type BatchInput = {
  requests: Array<{ custom_id: string; messages: ChatMessage[] }>;
  provider?: string;
  model?: string;
  max_tokens: number;
};

export type BatchItemResult = {
  custom_id: string;
  status: "succeeded" | "errored";
  content?: string;
  model?: string;
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  error?: string;
};

/** What a batch's status can be: its task's, with the spec's names for the first three. */
export const BATCH_STATUSES = [
  "queued",
  "in_progress",
  "processing_complete",
  "failed",
  "cancelled",
  "budget_exceeded",
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** Spec-facing status of the task behind a batch. */
export function batchStatus(task: Task): BatchStatus {
  switch (task.status) {
    case "pending":
      return "queued";
    case "running":
      return "in_progress";
    case "completed":
      return "processing_complete";
    default:
      return task.status;
  }
}

/** A batch as its status answers give it; `queuePosition` while it waits on this instance's runner. */
export function describeBatch(task: Task, queuePosition: number | null = null) {
  const input = task.input as BatchInput;
  const results = batchResults(task);
  const succeeded = results.filter((r) => r.status === "succeeded").length;
  // Items without a result are still to run, unless the batch has ended (its budget ran out, say).
  const left = input.requests.length - results.length;
  const ended = FINAL_STATUSES.has(task.status);
  return {
    id: task.id,
    status: batchStatus(task),
    provider: input.provider ?? null,
    model: input.model ?? null,
    request_counts: {
      total: input.requests.length,
      succeeded,
      errored: results.length - succeeded,
      processing: ended ? 0 : left,
      not_run: ended ? left : 0,
    },
    progress: task.progress,
    created_at: task.createdAt.toISOString(),
    completed_at: task.completedAt?.toISOString() ?? null,
    error: task.error,
    ...(queuePosition !== null && task.status === "pending" ? { queue_position: queuePosition } : {}),
  };
}

/** The items a batch finished, in request order: all of them once complete, those done before a budget stop. */
export const batchResults = (task: Task): BatchItemResult[] =>
  (task.result as { results?: BatchItemResult[] } | null)?.results ?? [];

/** Batch statuses whose results can be read: every item finished, or the key's budget stopped the rest. */
export const RESULTS_READY = ["processing_complete", "budget_exceeded"] as const;

const DAY_MS = 86_400_000;

/**
 * 429 when a batch of `asked` items would take the key past its items per UTC day (items already
 * submitted today: `used`), else null. Retry-After points at midnight UTC, when the count starts over.
 */
export function batchQuotaError(used: number, asked: number, perDay: number, now: number): RateLimitError | null {
  if (used + asked <= perDay) return null;
  const left = Math.max(0, perDay - used);
  return new RateLimitError(
    `rate limit exceeded: batches may hold ${perDay} items per key per UTC day; ${left} left today and this batch has ${asked}. It resets at midnight UTC`,
    Math.max(1, Math.ceil((DAY_MS - (now % DAY_MS)) / 1000)),
    "batch_items",
  );
}

/**
 * Items in batches created since midnight UTC by any key of the rotation lineage (a rotation brings no
 * fresh quota), read in the transaction that writes the next batch.
 */
async function batchItemsToday(tx: TaskTransaction, lineage: string, now: number): Promise<number> {
  const since = new Date(now - (now % DAY_MS));
  const rows = await tx.$queryRaw<Array<{ items: number }>>`
    SELECT COALESCE(SUM(jsonb_array_length(input -> 'requests')), 0)::int AS items FROM tasks
    WHERE kind = ${BATCH_KIND} AND created_at >= ${since}
      AND owner_key_id IN (${lineageKeys(lineage)})`;
  return Number(rows[0]?.items ?? 0);
}

/**
 * Runs a batch in the background on the job runner: every request goes through the same chat path
 * as /v1/llm/chat, a few at a time; each item's tokens are metered to the batch's key and counted in
 * /metrics. Each item counts against the lineage's batch items per day (counted and written under one
 * lock, so parallel batches cannot all pass), and the batch against its queued-jobs quota.
 */
export async function createBatch(rt: Runtime, owner: JobOwner, input: BatchInput): Promise<Task> {
  const keyId = owner.id;
  const admit = async (tx: TaskTransaction) => {
    const now = Date.now();
    const over = batchQuotaError(
      await batchItemsToday(tx, owner.limitKey, now),
      input.requests.length,
      rt.config.jobs.batchItemsPerDay,
      now,
    );
    if (over) throw over;
  };
  return rt.runner.submit(
    owner,
    () => rt.tasks.createAdmitted(`batch items:${owner.limitKey}`, admit, BATCH_KIND, keyId, input),
    async (task, ctx) => {
      // The router in force when the batch starts serves all its items.
      const router = await modelRouter(rt);
      const results: BatchItemResult[] = new Array(input.requests.length);
      let done = 0;
      let next = 0;
      let progressAt = performance.now();
      // Set by the first item the key's hard-stop budget or a token window refuses: no further item starts.
      let refused: RateLimitError | undefined;
      // Each item's tokens are reserved in every token window over the key (its own, its user's, team's,
      // organisation's) and settled with what it used, as a model call through the API is.
      const key = await keyById(rt, keyId)();
      const worker = async () => {
        while (next < input.requests.length && !ctx.signal.aborted && !refused) {
          // Each finished item is metered (below) into the budget at once, so the next one sees it.
          refused = spendRefusal(rt, keyId);
          if (refused) break;
          const i = next++;
          const item = input.requests[i]!;
          let reservation: TokenReservation | undefined;
          try {
            const body = { messages: item.messages, max_tokens: input.max_tokens };
            reservation = key ? await reserveKeyTokens(rt, key, "/v1/llm/batch#item", body) : undefined;
          } catch (err) {
            if (!(err instanceof RateLimitError)) throw err;
            // This item and the rest never run, as when the budget stops the batch.
            refused ??= err;
            break;
          }
          const started = performance.now();
          try {
            const r = await routedCompletion(
              router,
              input,
              `${task.id}:${item.custom_id}`,
              { messages: item.messages, max_tokens: input.max_tokens },
              ctx.signal,
            );
            results[i] = {
              custom_id: item.custom_id,
              status: "succeeded",
              content: r.content,
              model: r.model,
              usage: r.usage,
            };
            recordUsage(rt, {
              keyId,
              requestId: `${task.id}:${item.custom_id}`,
              method: "JOB",
              route: "/v1/llm/batch#item",
              area: "llm",
              status: 200,
              latencyMs: performance.now() - started,
              bytesIn: 0,
              bytesOut: r.content.length,
              provider: r.provider,
              model: r.model,
              promptTokens: r.usage.prompt_tokens,
              completionTokens: r.usage.completion_tokens,
              at: new Date(),
            });
            reservation?.settle(r.usage.prompt_tokens + r.usage.completion_tokens);
          } catch (err) {
            reservation?.settle(0);
            results[i] = { custom_id: item.custom_id, status: "errored", error: (err as Error).message };
          }
          done += 1;
          if (done < input.requests.length && performance.now() - progressAt >= PROGRESS_EVERY_MS) {
            progressAt = performance.now();
            await ctx.progress(done / input.requests.length);
          }
          await yieldToEventLoop();
        }
      };
      await Promise.all(Array.from({ length: Math.min(ITEM_CONCURRENCY, input.requests.length) }, worker));
      // Items already running when the budget ran out finish and are kept; the rest never run.
      if (refused) throw new BudgetExceeded(refused, { results: results.filter(Boolean) });
      return { results };
    },
  );
}

/**
 * One item's chat through the model router: the batch's provider and model (or an alias as the model),
 * retried or fallen over as a request's would be. LLM_TIMEOUT_MS bounds all its attempts together, and
 * the task's cancel stops it.
 */
async function routedCompletion(
  router: ModelRouter,
  input: Pick<BatchInput, "provider" | "model">,
  id: string,
  req: ChatRequest,
  signal: AbortSignal,
): Promise<CompletionResponse> {
  const plan = router.plan(llmRouteModels(router, input).model, { id });
  const ms = llmTimeoutMs();
  const stop = new CallStop(ms).follow(signal);
  try {
    return (
      await router.run(plan, (deployment, attempt) => completeChat(req, attempt, deployment), stop, Date.now() + ms)
    ).value;
  } finally {
    stop.release();
  }
}
