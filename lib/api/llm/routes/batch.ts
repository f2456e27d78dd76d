import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../../errors.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { Reply } from "../../../gateway/pipeline/answer.ts";
import type { Call } from "../../../gateway/pipeline/call.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { DEFAULT_PROVIDER } from "../../../upstream/llm-catalogue.ts";
import {
  BATCH_KIND,
  BATCH_STATUSES,
  batchResults,
  batchStatus,
  createBatch,
  describeBatch,
  RESULTS_READY,
  type BatchStatus,
} from "../batch.ts";
import { configuredProvider as configuredProviderOrThrow } from "../../../llm/models.ts";
import { Message, providerErrors } from "../../../llm/route-schemas.ts";
import { modelRouter } from "../../../llm/routing/runtime-router.ts";

const BatchBody = z.object({
  requests: z
    .array(z.object({ custom_id: z.string().min(1).max(64), messages: z.array(Message).min(1).max(100) }))
    .min(1)
    .max(1000)
    .refine((r) => new Set(r.map((x) => x.custom_id)).size === r.length, "custom_id values must be unique"),
  provider: z.string().optional(),
  model: z.string().max(200).optional(),
  max_tokens: z.number().int().min(1).max(200_000).default(1024),
});
const BatchSchema = z
  .object({
    id: z.string(),
    status: z.enum(BATCH_STATUSES).openapi({
      description:
        "budget_exceeded: the key's hard-stop monthly budget ran out while the batch ran; the items finished before it keep their results, the rest did not run",
    }),
    provider: z.string().nullable(),
    model: z.string().nullable(),
    request_counts: z.object({
      total: z.number().int(),
      succeeded: z.number().int(),
      errored: z.number().int(),
      processing: z.number().int(),
      not_run: z.number().int().openapi({ description: "Items the batch ended without running (its budget ran out)" }),
    }),
    progress: z.number(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    error: z.string().nullable(),
    queue_position: z.number().int().min(1).optional().openapi({
      description:
        "While queued: the batch's place among the jobs waiting to start (1 = next); absent when the instance answering does not hold its queue",
    }),
  })
  .openapi("Batch");
const batchCreateConfig = (path: string) =>
  gatewayRoute("key", {
    method: "post",
    path,
    summary: "Create a batch of chat requests, run in the background",
    tags: ["LLM"],
    request: jsonRequest(BatchBody),
    responses: { 201: jsonResponse(BatchSchema, "The batch, queued"), ...keyedErrors, ...providerErrors },
  });
const batchCreate = batchCreateConfig("/v1/llm/batch");
const batchCreateFormB = batchCreateConfig("/v1/llm/batch/create");

const handleBatchCreate: Handler<typeof batchCreate> = async (c, { body }) => {
  const rt = c.runtime;
  // Checked now, so a batch for an unconfigured provider fails at once, not item by item; an alias named
  // as the model is the router's to serve.
  const alias = body.provider === undefined && body.model !== undefined && (await modelRouter(rt)).isAlias(body.model);
  if (!alias) configuredProviderOrThrow(body.provider ?? DEFAULT_PROVIDER);
  const task = await createBatch(rt, c.key!, body);
  return Reply.json(describeBatch(task, rt.runner.queuePosition(task.id)), 201);
};

const batchList = gatewayRoute(
  "key",
  {
    method: "get",
    path: "/v1/llm/batch",
    summary: "This key's batches, newest first",
    tags: ["LLM"],
    request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }) },
    responses: {
      200: jsonResponse(z.object({ batches: z.array(BatchSchema), count: z.number().int() }), "Batches"),
      ...keyedErrors,
    },
  },
  { readsOwnWork: true },
);

const handleBatchList: Handler<typeof batchList> = async (c, { query }) => {
  const rt = c.runtime;
  const tasks = await rt.tasks.listForOwner(c.key!.id, BATCH_KIND, query.limit);
  const batches = tasks.map((task) => describeBatch(task, rt.runner.queuePosition(task.id)));
  return { batches, count: tasks.length };
};

const ownBatch = async (c: Call, id: string) => {
  const task = await c.runtime.tasks.getForOwner(id, c.key!.id);
  if (!task || task.kind !== BATCH_KIND) throw new GatewayError(404, `no batch '${id}' for this key`);
  return task;
};

const batchGet = gatewayRoute(
  "key",
  {
    method: "get",
    path: "/v1/llm/batch/{batch_id}",
    summary: "A batch's status",
    tags: ["LLM"],
    request: { params: z.object({ batch_id: z.string().min(1).max(100) }) },
    responses: {
      200: jsonResponse(BatchSchema, "The batch"),
      ...keyedErrors,
      404: jsonResponse(ErrorSchema, "No such batch for this key"),
    },
  },
  { readsOwnWork: true },
);

const handleBatchGet: Handler<typeof batchGet> = async (c, { params }) => {
  const task = await ownBatch(c, params.batch_id);
  return describeBatch(task, c.runtime.runner.queuePosition(task.id));
};

const batchResultsRoute = gatewayRoute(
  "key",
  {
    method: "get",
    path: "/v1/llm/batch/{batch_id}/results",
    summary: "A finished batch's results, in request order (past a budget stop, those of the items it finished)",
    tags: ["LLM"],
    request: { params: z.object({ batch_id: z.string().min(1).max(100) }) },
    responses: {
      200: jsonResponse(
        z.object({
          id: z.string(),
          status: z.enum(RESULTS_READY),
          results: z.array(z.record(z.string(), z.unknown())),
        }),
        "Results",
      ),
      ...keyedErrors,
      404: jsonResponse(ErrorSchema, "No such batch for this key"),
      409: jsonResponse(ErrorSchema, "Not finished yet: the message gives the status"),
    },
  },
  { readsOwnWork: true },
);

const handleBatchResults: Handler<typeof batchResultsRoute> = async (c, { params }) => {
  const task = await ownBatch(c, params.batch_id);
  const status = batchStatus(task);
  if (!isResultsReady(status))
    throw new GatewayError(
      409,
      `batch is ${status}; results are ready when it is processing_complete (or budget_exceeded: those it finished)`,
    );
  return { id: task.id, status, results: batchResults(task) };
};

const isResultsReady = (status: BatchStatus): status is (typeof RESULTS_READY)[number] =>
  (RESULTS_READY as readonly string[]).includes(status);

/** Batches of chat requests, run in the background on the key's queue. */
export const batchRoutes: RouteDef[] = [
  route(batchCreate, handleBatchCreate),
  route(batchCreateFormB, handleBatchCreate),
  route(batchList, handleBatchList),
  route(batchGet, handleBatchGet),
  route(batchResultsRoute, handleBatchResults),
];
