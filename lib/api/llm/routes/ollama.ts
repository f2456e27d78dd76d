import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../../errors.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { untilStreamEnds } from "../../../gateway/http/stream-end.ts";
import { Reply } from "../../../gateway/pipeline/answer.ts";
import type { Call } from "../../../gateway/pipeline/call.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { embedOnRunner } from "../../../llm/embeddings.ts";
import {
  addHost,
  assertMayChangeModels,
  deleteModel,
  installedModels,
  listHosts,
  pullModel,
  removeHost,
  resolveHost,
  runningModels,
  withStatus,
} from "../../../llm/ollama.ts";

const HostQuery = z.object({
  host: z.string().optional().openapi({ description: "A registered host URL; default the operator's" }),
});
const runnerErrors = { 502: jsonResponse(ErrorSchema, "The runner could not be reached or failed") };
const HostSchema = z.object({
  url: z.string(),
  name: z.string().nullable(),
  default: z.boolean(),
  status: z.enum(["online", "offline"]),
});
const tags = ["Local model runner"];

const keyOf = (c: Call) => {
  const key = c.key;
  if (!key) throw new GatewayError(401, "missing API key");
  return key;
};
// Registered hosts belong to the key's rotation lineage.
const owner = (c: Call) => keyOf(c).limitKey;
// The ?host= a call names, checked for this key (or the operator's default).
const hostFor = (c: Call, query: z.output<typeof HostQuery>) => resolveHost(c.runtime, owner(c), query.host);

const embed = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/ollama/embed",
  summary: "Embed a text on the local runner",
  tags,
  request: {
    query: HostQuery,
    ...jsonRequest(z.object({ text: z.string().min(1).max(100_000), model: z.string().max(200).optional() })),
  },
  responses: {
    200: jsonResponse(z.object({ embedding: z.array(z.number()), model: z.string() }), "The embedding"),
    ...keyedErrors,
    ...runnerErrors,
  },
});

const handleEmbed: Handler<typeof embed> = async (c, { query, body }) => {
  // A registered host is checked by resolveHost, and the shared embedding path connects to that address.
  const runner = await hostFor(c, query);
  const r = await embedOnRunner([body.text], body.model, c.signal, runner);
  c.report({ provider: "ollama", model: r.model, promptTokens: r.tokens });
  return { embedding: r.embeddings[0] ?? [], model: r.model };
};
const hosts = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/ollama/hosts",
  summary: "Runner hosts this key can use, with live status",
  tags,
  responses: { 200: jsonResponse(z.object({ hosts: z.array(HostSchema) }), "Hosts"), ...keyedErrors },
});

const handleHosts: Handler<typeof hosts> = async (c) => {
  const rt = c.runtime;
  return { hosts: await withStatus(rt, await listHosts(rt, owner(c)), c.signal) };
};
const HostUrl = z.string().min(1).max(500);
const addHostRoute = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/ollama/hosts",
  summary: "Register a runner host for this key",
  tags,
  request: jsonRequest(z.object({ url: HostUrl, name: z.string().max(100).optional() })),
  responses: {
    201: jsonResponse(HostSchema, "The registered host"),
    ...keyedErrors,
    409: jsonResponse(ErrorSchema, "The key has registered as many hosts as OLLAMA_HOSTS_PER_KEY allows"),
  },
});

const handleAddHost: Handler<typeof addHostRoute> = async (c, { body }) => {
  const rt = c.runtime;
  const host = await addHost(rt, owner(c), body.url, body.name);
  const [added] = await withStatus(rt, [host], c.signal);
  return Reply.json(added!, 201);
};
const removeHostRoute = gatewayRoute("key", {
  method: "delete",
  path: "/v1/llm/ollama/hosts",
  summary: "Remove a runner host this key registered, freeing its place under OLLAMA_HOSTS_PER_KEY",
  tags,
  request: { query: z.object({ url: HostUrl.openapi({ description: "The host's URL, as GET lists it" }) }) },
  responses: {
    204: { description: "Removed" },
    ...keyedErrors,
    404: jsonResponse(ErrorSchema, "This key (with its rotations) has registered no such host"),
  },
});

const handleRemoveHost: Handler<typeof removeHostRoute> = async (c, { query }) => {
  await removeHost(c.runtime, owner(c), query.url);
  return Reply.empty(204);
};
const models = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/ollama/models",
  summary: "Models installed on the runner",
  tags,
  request: { query: HostQuery },
  responses: {
    200: jsonResponse(
      z.object({ host: z.string(), models: z.array(z.record(z.string(), z.unknown())) }),
      "Installed models",
    ),
    ...keyedErrors,
    ...runnerErrors,
  },
});

const handleModels: Handler<typeof models> = async (c, { query }) => {
  const runner = await hostFor(c, query);
  return { host: runner.url, models: await installedModels(runner) };
};
const pull = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/ollama/models/pull",
  summary: "Pull a model onto the runner, streaming progress",
  tags,
  request: { query: HostQuery, ...jsonRequest(z.object({ model: z.string().min(1).max(200) })) },
  responses: {
    200: {
      description: "text/event-stream of {status, total, completed, percent}, ending with {done, success}",
      content: { "text/event-stream": { schema: z.string() } },
    },
    ...keyedErrors,
    ...runnerErrors,
  },
});

const handlePull: Handler<typeof pull> = async (c, { query, body }) => {
  const runner = await hostFor(c, query);
  await assertMayChangeModels(c.runtime, keyOf(c), runner);
  const progress = untilStreamEnds(await pullModel(runner, body.model, c.signal));
  // The pull holds its concurrency slot until the stream ends, however long the download takes.
  return new Reply(
    200,
    progress.body,
    { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache" },
    progress.ended,
  );
};
const remove = gatewayRoute("key", {
  method: "delete",
  path: "/v1/llm/ollama/models/{model_name}",
  summary: "Delete a model from the runner",
  tags,
  request: { params: z.object({ model_name: z.string().min(1).max(200) }), query: HostQuery },
  responses: {
    200: jsonResponse(z.object({ deleted: z.string() }), "Deleted"),
    ...keyedErrors,
    404: jsonResponse(ErrorSchema, "Not installed"),
    ...runnerErrors,
  },
});

const handleRemove: Handler<typeof remove> = async (c, { query, params: { model_name } }) => {
  const runner = await hostFor(c, query);
  await assertMayChangeModels(c.runtime, keyOf(c), runner);
  await deleteModel(runner, model_name);
  return { deleted: model_name };
};
const running = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/ollama/running",
  summary: "Models loaded in the runner's memory now",
  tags,
  request: { query: HostQuery },
  responses: {
    200: jsonResponse(
      z.object({ host: z.string(), models: z.array(z.record(z.string(), z.unknown())) }),
      "Loaded models",
    ),
    ...keyedErrors,
    ...runnerErrors,
  },
});

const handleRunning: Handler<typeof running> = async (c, { query }) => {
  const runner = await hostFor(c, query);
  return { host: runner.url, models: await runningModels(runner) };
};

/** The local model runner (Ollama): the operator's host and those a key registers. */
export const ollamaRoutes: RouteDef[] = [
  route(embed, handleEmbed),
  route(hosts, handleHosts),
  route(addHostRoute, handleAddHost),
  route(removeHostRoute, handleRemoveHost),
  route(models, handleModels),
  route(pull, handlePull),
  route(remove, handleRemove),
  route(running, handleRunning),
];
