import type { paths, Schemas } from "../../../lib/client/index.ts";
import { consoleClient, dataOf } from "../../../lib/console/api.ts";
import { sseData } from "../../../lib/console/sse.ts";
import type { ResearchKind } from "./research-result";
import { isClosing, parseMessage, type RunEvent } from "./research-tree";

/** The research calls (contract "HTTP"): start async, follow the stream, read the status, cancel. */

export type Budget = "cheap" | "balanced" | "premium";
export type ResearchForm = {
  kind: ResearchKind;
  /** The cascade's task or the swarm's query. */
  text: string;
  title: string;
  agents: number;
  budget: Budget;
  provider: string;
};

export const AGENT_LIMITS: Record<ResearchKind, { max: number; default: number; textMax: number }> = {
  "dream-cascade": { max: 20, default: 8, textMax: 4000 },
  "dream-swarm": { max: 12, default: 5, textMax: 2000 },
};

type Body<P extends "/v1/orchestrate/dream-cascade" | "/v1/orchestrate/dream-swarm"> =
  paths[P]["post"]["requestBody"]["content"]["application/json"];

export function requestBody(
  form: ResearchForm,
): Body<"/v1/orchestrate/dream-cascade"> | Body<"/v1/orchestrate/dream-swarm"> {
  const common = { num_agents: form.agents, budget_tier: form.budget, provider_name: form.provider };
  if (form.kind === "dream-swarm") return { query: form.text.trim(), ...common };
  const title = form.title.trim();
  return { task: form.text.trim(), ...(title ? { title } : {}), ...common };
}

const task = (taskId: string) => ({ params: { path: { task_id: taskId } } });

/** Starts a task; a server that answers synchronously (200) hands back the result instead of an id. */
export async function startResearch(
  form: ResearchForm,
  signal: AbortSignal,
): Promise<{ taskId: string } | { result: unknown }> {
  const body = requestBody(form);
  const init = { params: { query: { async: "true" as const } }, signal };
  const answer = await dataOf(
    "query" in body
      ? consoleClient().POST("/v1/orchestrate/dream-swarm", { ...init, body })
      : consoleClient().POST("/v1/orchestrate/dream-cascade", { ...init, body }),
  );
  return typeof answer.task_id === "string" ? { taskId: answer.task_id } : { result: answer };
}

type StatusBody = Partial<Pick<Schemas["ResearchTaskStatus"], "status" | "result" | "error">>;

/** A finished task's status as the stream's closing event; nothing while it still runs. */
export function closingEventOf(status: StatusBody): RunEvent | null {
  if (status.status === "completed") return { type: "complete", result: status.result };
  if (status.status === "failed") return { type: "error", error: status.error ?? null };
  if (status.status === "cancelled") return { type: "cancelled" };
  if (status.status === "budget_exceeded") return { type: "budget_exceeded", error: status.error ?? null };
  return null;
}

const RECONNECTS = 3;

/**
 * Feeds the task's events to `onEvent` until a closing one. A stream that closes early (a proxy's idle
 * timeout, a restarted instance) is checked against the status and, while the task runs, reopened:
 * the server replays past events first, which the reducer takes idempotently.
 */
export async function followStream(
  taskId: string,
  signal: AbortSignal,
  onEvent: (event: RunEvent) => void,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    // The body as a stream, read event by event as the server writes them (SSE, not one JSON answer).
    const stream = await dataOf(
      consoleClient().GET("/v1/orchestrate/{task_id}/stream", {
        ...task(taskId),
        parseAs: "stream",
        headers: { accept: "text/event-stream" },
        signal,
      }),
    );
    for await (const data of sseData(stream!)) {
      for (const event of parseMessage(data)) {
        onEvent(event);
        if (isClosing(event)) return;
      }
    }
    const status = await dataOf(consoleClient().GET("/v1/orchestrate/{task_id}/status", { ...task(taskId), signal }));
    const closing = closingEventOf(status);
    if (closing) return onEvent(closing);
    if (attempt >= RECONNECTS)
      throw new Error(`the progress stream kept closing while the task was ${status.status ?? "unknown"}`);
  }
}

export async function cancelResearch(taskId: string): Promise<void> {
  await dataOf(consoleClient().DELETE("/v1/orchestrate/{task_id}", task(taskId)));
}
