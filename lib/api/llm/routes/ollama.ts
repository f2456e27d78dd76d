import { z, type RouteHandler } from "@hono/zod-openapi";
import type { AreaApp } from "../../../gateway/http/area.ts";
import type { GatewayEnv, RequestVariables } from "../../../gateway/http/context.ts";
import { GatewayError } from "../../../errors.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { embedTexts } from "../embeddings.ts";
import { untilStreamEnds } from "../../../gateway/http/stream-end.ts";
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
} from "../ollama.ts";

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

const keyOf = (c: RequestVariables) => {
  const key = c.get("key");
  if (!key) throw new GatewayError(401, "missing API key");
  return key;
};
// Registered hosts belong to the key's rotation lineage.
const owner = (c: RequestVariables) => keyOf(c).limitKey;
// The ?host= a call names, checked for this key (or the operator's default).
const hostFor = (c: RequestVariables & { req: { query(name: string): string | undefined } }) =>
  resolveHost(c.get("runtime"), owner(c), c.req.query("host"));

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

const handleEmbed: RouteHandler<typeof embed, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  // A registered host is checked by resolveHost, and the shared embedding path connects to that address.
  const runner = await hostFor(c);
  const r = await embedTexts([body.text], "ollama", body.model, c.req.raw.signal, runner);
  c.set("usage", { provider: "ollama", model: r.model, promptTokens: r.tokens });
  return c.json({ embedding: r.embeddings[0] ?? [], model: r.model }, 200);
};
const hosts = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/ollama/hosts",
  summary: "Runner hosts this key can use, with live status",
  tags,
  responses: { 200: jsonResponse(z.object({ hosts: z.array(HostSchema) }), "Hosts"), ...keyedErrors },
});

const handleHosts: RouteHandler<typeof hosts, GatewayEnv> = async (c) => {
  const rt = c.get("runtime");
  return c.json({ hosts: await withStatus(rt, await listHosts(rt, owner(c)), c.req.raw.signal) }, 200);
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

const handleAddHost: RouteHandler<typeof addHostRoute, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const rt = c.get("runtime");
  const host = await addHost(rt, owner(c), body.url, body.name);
  const [added] = await withStatus(rt, [host], c.req.raw.signal);
  return c.json(added!, 201);
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

const handleRemoveHost: RouteHandler<typeof removeHostRoute, GatewayEnv> = async (c) => {
  await removeHost(c.get("runtime"), owner(c), c.req.valid("query").url);
  return c.body(null, 204);
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

const handleModels: RouteHandler<typeof models, GatewayEnv> = async (c) => {
  const runner = await hostFor(c);
  return c.json({ host: runner.url, models: await installedModels(runner) }, 200);
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

const handlePull: RouteHandler<typeof pull, GatewayEnv> = async (c) => {
  const runner = await hostFor(c);
  await assertMayChangeModels(c.get("runtime"), keyOf(c), runner);
  const { body, ended } = untilStreamEnds(await pullModel(runner, c.req.valid("json").model, c.req.raw.signal));
  // The pull holds its concurrency slot until the stream ends, however long the download takes.
  c.set("streamDone", ended);
  return new Response(body, {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  }) as never;
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

const handleRemove: RouteHandler<typeof remove, GatewayEnv> = async (c) => {
  const runner = await hostFor(c);
  await assertMayChangeModels(c.get("runtime"), keyOf(c), runner);
  const { model_name } = c.req.valid("param");
  await deleteModel(runner, model_name);
  return c.json({ deleted: model_name }, 200);
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

const handleRunning: RouteHandler<typeof running, GatewayEnv> = async (c) => {
  const runner = await hostFor(c);
  return c.json({ host: runner.url, models: await runningModels(runner) }, 200);
};

export function registerOllamaRoutes(app: AreaApp): void {
  app.openapi(embed, handleEmbed);
  app.openapi(hosts, handleHosts);
  app.openapi(addHostRoute, handleAddHost);
  app.openapi(removeHostRoute, handleRemoveHost);
  app.openapi(models, handleModels);
  app.openapi(pull, handlePull);
  app.openapi(remove, handleRemove);
  app.openapi(running, handleRunning);
}
