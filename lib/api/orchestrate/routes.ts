import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { Reply } from "../../gateway/pipeline/answer.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { GatewayError } from "../../errors.ts";
import { TASK_STATUSES, type Task } from "../../jobs/task-store.ts";
import { taskMessages } from "../../jobs/task-stream.ts";
import { CallStop } from "../../upstream/call-stop.ts";
import { configuredProvider } from "../../llm/models.ts";
import { Budget, providerErrors } from "../../llm/route-schemas.ts";
import { CASCADE_KIND, ID_PREFIX, RESEARCH_KINDS, researchAttributes, runResearch, SWARM_KIND } from "./research.ts";

const tags = ["Orchestration"];

const asyncQuery = z.object({
  async: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .openapi({ description: "true: answer 202 with a task id at once and run in the background" }),
});

const provider_name = z
  .string()
  .min(1)
  .max(40)
  .default("xai")
  .openapi({ description: "The provider whose cheap, balanced and premium models the agents use" });
const budget_tier = Budget.default("balanced").openapi({
  description: "Shifts every tier one down (cheap) or up (premium): workers, synthesizers, summary",
});

const CascadeBody = z.object({
  task: z.string().trim().min(1).max(4000),
  title: z.string().max(200).optional(),
  num_agents: z.number().int().min(1).max(20).default(8).openapi({ description: "Worker agents (1–20)" }),
  provider_name,
  budget_tier,
});
const SwarmBody = z.object({
  query: z.string().trim().min(1).max(2000),
  num_agents: z.number().int().min(1).max(12).default(5).openapi({ description: "Search agents (1–12)" }),
  provider_name,
  budget_tier,
});

const Accepted = z.object({ task_id: z.string(), status: z.literal("pending") }).openapi("ResearchTaskAccepted");
const ResearchResult = z.record(z.string(), z.unknown()).openapi("ResearchResult", {
  description:
    "The run: subtasks or searchers, each agent's output, syntheses, summary or answer, sources, usage, timings",
});
const TaskStatus = z
  .object({
    task_id: z.string(),
    kind: z.string(),
    status: z.enum(TASK_STATUSES).openapi({
      description:
        "budget_exceeded: the key's hard-stop monthly budget ran out during the run; it stopped, and its result holds the agents that finished and the spend",
    }),
    progress: z.number(),
    result: z.unknown().nullable(),
    error: z.string().optional(),
    usage: z.unknown().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    completed_at: z.string().nullable(),
    queue_position: z.number().int().min(1).optional().openapi({
      description:
        "While pending: the task's place among the tasks waiting to start (1 = next); absent when the instance answering cannot tell",
    }),
  })
  .openapi("ResearchTaskStatus");
const Cancelled = z
  .object({ task_id: z.string(), status: z.string(), message: z.string() })
  .openapi("ResearchTaskCancelled");

const startRoute = <B extends z.ZodType>(path: string, body: B, summary: string) =>
  gatewayRoute("key", {
    method: "post",
    path,
    summary,
    tags,
    request: { query: asyncQuery, ...jsonRequest(body) },
    responses: {
      200: jsonResponse(ResearchResult, "The finished run (without async)"),
      202: jsonResponse(Accepted, "Accepted: poll /status or read /stream with the task id"),
      ...keyedErrors,
      ...providerErrors,
    },
  });

const cascade = startRoute(
  "/v1/orchestrate/dream-cascade",
  CascadeBody,
  "Three-tier research: worker agents gather (with the data-source tools), mid-level agents synthesize, a top agent writes an executive summary",
);
const swarm = startRoute(
  "/v1/orchestrate/dream-swarm",
  SwarmBody,
  "Parallel typed search agents (academic, news, technical, …) over the data-source tools, merged into one answer",
);

async function start(
  c: Call,
  kind: (typeof RESEARCH_KINDS)[number],
  input: z.infer<typeof CascadeBody> | z.infer<typeof SwarmBody>,
  asyncFlag: string | undefined,
) {
  // Fails now (400 unknown, 503 unconfigured) rather than inside a background task.
  configuredProvider(input.provider_name);
  const rt = c.runtime;
  const key = c.key!;
  const keyId = key.id;
  if (asyncFlag === "true" || asyncFlag === "1") {
    const task = await rt.durable.submit(key, kind, input, {
      idPrefix: ID_PREFIX[kind],
      capKinds: RESEARCH_KINDS,
      traceparent: c.trace?.traceparent,
    });
    return Reply.json({ task_id: task.id, status: "pending" as const }, 202);
  }
  const stop = c.stop(rt.config.jobs.taskTimeoutMs);
  const result = await runResearch(rt, kind, input as never, {
    keyId,
    key,
    route: `/v1/orchestrate/${kind}`,
    area: "orchestrate",
    requestId: c.requestId,
    signal: stop.signal,
    trace: c.trace?.child("research.task", researchAttributes(kind, input)),
  })
    .catch((err: unknown) => {
      if (!stop.timedOut) throw err;
      const seconds = Math.round(rt.config.jobs.taskTimeoutMs / 1000);
      throw new GatewayError(
        504,
        `the run took longer than ${seconds} s and was stopped; use ?async=true for long runs`,
      );
    })
    .finally(() => stop.release());
  return result as Record<string, unknown>;
}

const handleCascade: Handler<typeof cascade> = (c, { body, query }) => start(c, CASCADE_KIND, body, query.async);
const handleSwarm: Handler<typeof swarm> = (c, { body, query }) => start(c, SWARM_KIND, body, query.async);

const taskParams = z.object({ task_id: z.string().min(1).max(100) });
const notFound = { 404: jsonResponse(ErrorSchema, "No such task for this key") };

/** The key's research task, or 404: another key's task is indistinguishable from none. */
async function ownTask(c: Call, id: string): Promise<Task> {
  const task = await c.runtime.tasks.getForOwner(id, c.key!.id);
  if (!task || !(RESEARCH_KINDS as readonly string[]).includes(task.kind))
    throw new GatewayError(404, `no research task '${id}' for this key`);
  return task;
}

const status = gatewayRoute(
  "key",
  {
    method: "get",
    path: "/v1/orchestrate/{task_id}/status",
    summary: "A research task's status, and its result once completed (or what was done when its budget ran out)",
    tags,
    request: { params: taskParams },
    responses: { 200: jsonResponse(TaskStatus, "The task"), ...keyedErrors, ...notFound },
  },
  { readsOwnWork: true },
);

const handleStatus: Handler<typeof status> = async (c, { params }) => {
  const task = await ownTask(c, params.task_id);
  const position = task.status === "pending" ? await c.runtime.durable.queuePosition(task.id) : null;
  return {
    task_id: task.id,
    kind: task.kind,
    status: task.status,
    progress: task.progress,
    result: task.result ?? null,
    ...(task.status === "cancelled" ? { error: "Cancelled" } : task.error ? { error: task.error } : {}),
    usage: task.usage ?? null,
    created_at: task.createdAt.toISOString(),
    updated_at: task.updatedAt.toISOString(),
    completed_at: task.completedAt?.toISOString() ?? null,
    ...(position !== null ? { queue_position: position } : {}),
  };
};

const stream = gatewayRoute(
  "key",
  {
    method: "get",
    path: "/v1/orchestrate/{task_id}/stream",
    summary:
      "A research task's events as text/event-stream: agent_start, agent_complete, synthesis_complete… as they happen, status at least every 2 s, ending on complete, error, cancelled or timeout (600 s)",
    tags,
    request: { params: taskParams },
    responses: {
      200: {
        description: "Server-sent events, each `data:` a JSON object with task_id, status and type",
        content: { "text/event-stream": { schema: z.string() } },
      },
      ...keyedErrors,
      ...notFound,
    },
  },
  { readsOwnWork: true },
);

const STREAM_POLL_MS = 1000;
const STREAM_HEARTBEAT_MS = 2000;
const STREAM_MAX_MS = 600_000;

const handleStream: Handler<typeof stream> = async (c, { params }) => {
  const task = await ownTask(c, params.task_id);
  const rt = c.runtime;
  // Stops the task's messages when the reader cancels or the client leaves.
  const closed = new CallStop().follow(c.signal);
  const encoder = new TextEncoder();
  let finish: () => void = () => {};
  // The request keeps its concurrency slot until the stream ends, as for chat streams.
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const messages = taskMessages(rt.tasks, rt.durable, task, {
    pollMs: STREAM_POLL_MS,
    heartbeatMs: STREAM_HEARTBEAT_MS,
    maxMs: STREAM_MAX_MS,
    signal: closed.signal,
  });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await messages.next();
        if (next.done) {
          controller.close();
          finish();
        } else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
      } catch (err) {
        controller.error(err);
        finish();
      }
    },
    cancel() {
      closed.leave();
      finish();
    },
  });
  return new Reply(
    200,
    body,
    {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache",
      "X-Accel-Buffering": "no",
    },
    ended,
  );
};

const cancel = gatewayRoute("key", {
  method: "delete",
  path: "/v1/orchestrate/{task_id}",
  summary: "Cancel a pending or running research task: its in-flight model calls are aborted and its spend stops",
  tags,
  request: { params: taskParams },
  responses: {
    200: jsonResponse(Cancelled, "Cancelled, or the state it had already ended in"),
    ...keyedErrors,
    ...notFound,
  },
});

const handleCancel: Handler<typeof cancel> = async (c, { params }) => {
  const task = await ownTask(c, params.task_id);
  const cancelled = await c.runtime.durable.cancel(task.id);
  if (cancelled) return { task_id: task.id, status: "cancelled", message: "Cancelled" };
  const now = (await c.runtime.tasks.get(task.id)) ?? task;
  return { task_id: task.id, status: now.status, message: `Task already ${now.status}; nothing to cancel` };
};

export const orchestrateRoutes: RouteDef[] = [
  route(cascade, handleCascade),
  route(swarm, handleSwarm),
  route(status, handleStatus),
  route(stream, handleStream),
  route(cancel, handleCancel),
];
