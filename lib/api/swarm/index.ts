import { z } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import { route, type Handler } from "../../gateway/pipeline/route.ts";
import { isConfigured, providerEntry, DEFAULT_PROVIDER } from "../../upstream/llm-catalogue.ts";
import { configuredProvider } from "../../llm/models.ts";
import { providerErrors } from "../../llm/route-schemas.ts";
import { researchDeps } from "../../agents/research-deps.ts";
import { TOOLS } from "../../tools/tools.ts";
import { runSwarmChat } from "./chat.ts";
import { runHive } from "./hive.ts";

const tags = ["Swarm"];

const INDEX = {
  name: "swarm",
  description:
    "Tool-using agents over the gateway's 36 data-source tools: chat (one agent calling tools) and hive (plan → steps with tools → synthesis)",
  endpoints: {
    chat: "POST /v1/swarm/chat",
    hive: "POST /v1/swarm/hive",
    health: "GET /v1/swarm/health",
    tools: "GET /v1/tools/",
    mcp: "POST /v1/mcp",
  },
};
const Index = z
  .object({ name: z.string(), description: z.string(), endpoints: z.record(z.string(), z.string()) })
  .openapi("SwarmIndex");

const index = gatewayRoute("optional", {
  method: "get",
  // Declared without the trailing slash: the route table ignores one, so /v1/swarm/ matches too.
  path: "/v1/swarm",
  summary: "What the swarm offers (no key needed)",
  tags,
  responses: { 200: jsonResponse(Index, "Name, description and endpoints") },
});

const health = gatewayRoute("optional", {
  method: "get",
  path: "/v1/swarm/health",
  summary: "Whether the swarm can run: the default provider configured, and how tasks run (no key needed)",
  tags,
  responses: {
    200: jsonResponse(
      z.object({ status: z.enum(["ok", "degraded"]), mode: z.string(), message: z.string() }).openapi("SwarmHealth"),
      "Status, run mode and a message",
    ),
  },
});

const handleHealth: Handler<typeof health> = (c) => {
  const entry = providerEntry(DEFAULT_PROVIDER)!;
  const ready = isConfigured(entry);
  const mode = c.runtime.durable.mode;
  return {
    status: ready ? ("ok" as const) : ("degraded" as const),
    mode,
    message: ready
      ? `${TOOLS.length} tools ready; agents on ${DEFAULT_PROVIDER}; research tasks run ${mode === "bullmq" ? "on BullMQ workers" : "in this process"}`
      : `${DEFAULT_PROVIDER} is not configured (set ${entry.credential}); pass provider_name to use another configured provider`,
  };
};

const provider_name = z.string().min(1).max(40).default(DEFAULT_PROVIDER).openapi({
  description: "The provider the agents use",
});
const ChatBody = z.object({
  prompt: z.string().trim().min(1).max(8000),
  tools: z
    .array(z.string().max(100))
    .max(TOOLS.length)
    .optional()
    .openapi({ description: "Tool names the agent may call; empty or absent means all" }),
  provider_name,
});
const HiveBody = z.object({
  task: z.string().trim().min(1).max(4000),
  depth: z.enum(["quick", "balanced", "deep"]).default("balanced").openapi({
    description: "quick: 2 steps on the cheap tier; balanced: 3; deep: 5 on the premium tier",
  }),
  provider_name,
});
const Answer = z.record(z.string(), z.unknown());

const chat = gatewayRoute("key", {
  method: "post",
  path: "/v1/swarm/chat",
  summary: "One agent answers the prompt, calling the registry's tools; the answer lists the tool calls made",
  tags,
  request: jsonRequest(ChatBody),
  responses: {
    200: jsonResponse(Answer.openapi("SwarmChatResult"), "answer, tool_calls, sources, provider, model, usage"),
    ...keyedErrors,
    ...providerErrors,
  },
});

const hive = gatewayRoute("key", {
  method: "post",
  path: "/v1/swarm/hive",
  summary: "Plan the task, run each step as a tool-using agent, then synthesize one answer",
  tags,
  request: jsonRequest(HiveBody),
  responses: {
    200: jsonResponse(Answer.openapi("HiveResult"), "plan, steps, answer, sources, usage"),
    ...keyedErrors,
    ...providerErrors,
  },
});

function depsFor(c: Call, provider: string, route: string) {
  configuredProvider(provider);
  const rt = c.runtime;
  const key = c.key!;
  return researchDeps(rt, provider, {
    keyId: key.id,
    key,
    route,
    area: "swarm",
    requestId: c.requestId,
    signal: c.stop(rt.config.jobs.taskTimeoutMs).signal,
    trace: c.trace,
  });
}

const handleChat: Handler<typeof chat> = async (c, { body }) => {
  const result = await runSwarmChat(body, depsFor(c, body.provider_name, "/v1/swarm/chat"));
  return result as unknown as Record<string, unknown>;
};

const handleHive: Handler<typeof hive> = async (c, { body }) => {
  const result = await runHive(body, depsFor(c, body.provider_name, "/v1/swarm/hive"));
  return result as unknown as Record<string, unknown>;
};

const swarmRoutes = [
  route(index, () => INDEX),
  route(health, handleHealth),
  route(chat, handleChat),
  route(hive, handleHive),
];

/** Swarm (SPEC "swarm"): tool-using agents over the registry, answering in the request. */
export default defineArea({ name: "swarm", scope: "swarm", paths: ["/v1/swarm/*"], routes: swarmRoutes });
