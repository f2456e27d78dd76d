import { v1Fetch, v1Json } from "../../../lib/console/api.ts";
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

export function requestBody(form: ResearchForm): Record<string, unknown> {
  const common = { num_agents: form.agents, budget_tier: form.budget, provider_name: form.provider };
  if (form.kind === "dream-swarm") return { query: form.text.trim(), ...common };
  const title = form.title.trim();
  return { task: form.text.trim(), ...(title ? { title } : {}), ...common };
}

const taskPath = (taskId: string) => `/v1/orchestrate/${encodeURIComponent(taskId)}`;

/** Starts a task; a server that answers synchronously (200) hands back the result instead of an id. */
export async function startResearch(
  form: ResearchForm,
  signal: AbortSignal,
): Promise<{ taskId: string } | { result: unknown }> {
  const body = await v1Json<{ task_id?: unknown }>(`/v1/orchestrate/${form.kind}?async=true`, {
    method: "POST",
    body: JSON.stringify(requestBody(form)),
    signal,
  });
  return typeof body.task_id === "string" ? { taskId: body.task_id } : { result: body };
}

type StatusBody = { status?: string; result?: unknown; error?: string };

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
    const res = await v1Fetch(`${taskPath(taskId)}/stream`, { signal, headers: { accept: "text/event-stream" } });
    for await (const data of sseData(res.body!)) {
      for (const event of parseMessage(data)) {
        onEvent(event);
        if (isClosing(event)) return;
      }
    }
    const status = await v1Json<StatusBody>(`${taskPath(taskId)}/status`, { signal });
    const closing = closingEventOf(status);
    if (closing) return onEvent(closing);
    if (attempt >= RECONNECTS)
      throw new Error(`the progress stream kept closing while the task was ${status.status ?? "unknown"}`);
  }
}

export async function cancelResearch(taskId: string): Promise<void> {
  await v1Fetch(taskPath(taskId), { method: "DELETE" });
}
