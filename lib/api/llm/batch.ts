import type { Runtime } from "../../gateway/runtime.ts";
import type { Task } from "../../jobs/task-store.ts";
import { completeChat, type ChatMessage } from "./chat.ts";

export const BATCH_KIND = "llm.batch";
/** Items of one batch in flight at once, so a batch never starves the instance's other work. */
const ITEM_CONCURRENCY = 4;

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

/** Spec-facing status of the task behind a batch. */
export function batchStatus(task: Task): string {
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

export function describeBatch(task: Task) {
  const input = task.input as BatchInput;
  const results = ((task.result as { results?: BatchItemResult[] } | null)?.results ?? []) as BatchItemResult[];
  const succeeded = results.filter((r) => r.status === "succeeded").length;
  return {
    id: task.id,
    status: batchStatus(task),
    provider: input.provider ?? null,
    model: input.model ?? null,
    request_counts: { total: input.requests.length, succeeded, errored: results.length - succeeded, processing: input.requests.length - results.length },
    progress: task.progress,
    created_at: task.createdAt.toISOString(),
    completed_at: task.completedAt?.toISOString() ?? null,
    error: task.error,
  };
}

/**
 * Runs a batch in the background on the job runner: every request goes through the same chat path
 * as /v1/llm/chat, a few at a time; each item's tokens are metered to the batch's key.
 */
export async function createBatch(rt: Runtime, keyId: string, input: BatchInput): Promise<Task> {
  const task = await rt.tasks.create(BATCH_KIND, keyId, input);
  rt.runner.enqueue(task, async (_t, ctx) => {
    const results: BatchItemResult[] = new Array(input.requests.length);
    let done = 0;
    let next = 0;
    const worker = async () => {
      while (next < input.requests.length && !ctx.signal.aborted) {
        const i = next++;
        const item = input.requests[i]!;
        const started = performance.now();
        try {
          const r = await completeChat({ messages: item.messages, provider: input.provider, model: input.model, max_tokens: input.max_tokens }, ctx.signal);
          results[i] = { custom_id: item.custom_id, status: "succeeded", content: r.content, model: r.model, usage: r.usage };
          rt.meter.record({
            keyId, requestId: `${task.id}:${item.custom_id}`, method: "JOB", route: "/v1/llm/batch#item", status: 200,
            latencyMs: performance.now() - started, bytesIn: 0, bytesOut: r.content.length, provider: r.provider, model: r.model,
            promptTokens: r.usage.prompt_tokens, completionTokens: r.usage.completion_tokens, at: new Date(),
          });
        } catch (err) {
          results[i] = { custom_id: item.custom_id, status: "errored", error: (err as Error).message };
        }
        done += 1;
        await ctx.progress(done / input.requests.length);
      }
    };
    await Promise.all(Array.from({ length: Math.min(ITEM_CONCURRENCY, input.requests.length) }, worker));
    return { results };
  });
  return task;
}
