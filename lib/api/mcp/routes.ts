import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { Reply } from "../../gateway/pipeline/answer.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import { toolAdmission } from "../../tools/admission.ts";
import type * as McpServerModule from "./server.ts";

/** The key scope (and usage area) MCP is called and metered under: the tools'. */
export const MCP_SCOPE = "tools";

const JsonRpcMessage = z
  .looseObject({ jsonrpc: z.literal("2.0") })
  .openapi("JsonRpcMessage", { description: "A JSON-RPC 2.0 request, notification or response (MCP)" });
const JsonRpcMessages = z.union([JsonRpcMessage, z.array(JsonRpcMessage).min(1)]);

const mcp = gatewayRoute(
  "key",
  {
    method: "post",
    path: "/v1/mcp",
    summary:
      "Model Context Protocol (streamable HTTP, stateless, JSON responses): tools/list and tools/call over the 36 tools",
    description:
      "Point an MCP client at this URL with the key in a header (`Authorization: Bearer <key>` or `X-API-Key`). " +
      "Each POST is answered on its own: no session id, no server-sent stream (GET and DELETE answer 405). " +
      "A batch holds at most MCP_MAX_BATCH messages (default 20; more is a JSON-RPC error, 400) and runs its " +
      "tool calls 4 at a time. The POST counts as one request of the key and pays for its first tools/call; " +
      "each further tools/call counts (and is metered) as one more request, and one the key's limits or budget " +
      "refuse is a result with isError naming the limit, without reaching the source.",
    tags: ["Tools"],
    request: jsonRequest(JsonRpcMessages),
    responses: {
      200: jsonResponse(JsonRpcMessages, "The JSON-RPC response(s); a failed tool run is a result with isError"),
      202: { description: "Only notifications or responses were sent: accepted, no body" },
      ...keyedErrors,
      400: jsonResponse(
        z.union([ErrorSchema, JsonRpcMessage]),
        "Invalid parameters; or, as a JSON-RPC error, a batch of more than MCP_MAX_BATCH messages",
      ),
      406: jsonResponse(JsonRpcMessage, "Accept must list both application/json and text/event-stream"),
      415: jsonResponse(ErrorSchema, "The body is not JSON"),
    },
  },
  { limitKeyless: false },
);

// The MCP SDK costs ~0.25 s of CPU to import: every process that builds the app would pay it at start,
// so the first MCP request loads it instead.
let mcpServerModule: Promise<typeof McpServerModule> | undefined;
const loadMcpServer = () => (mcpServerModule ??= import("./server.ts"));

export const mcpRoutes: RouteDef[] = [
  route(mcp, async (c, { body }) => {
    const rt = c.runtime;
    const requestId = c.requestId;
    const key = c.key!;
    const signal = c.signal;
    // As the pipeline does for a route's error: a bug's message stays in the log, the caller gets the request id.
    const unexpected = (err: unknown) => {
      if (signal.aborted) return "request aborted";
      rt.logger.error({ err, requestId, route: "/v1/mcp" }, "tool failed");
      return `internal server error (request id ${requestId})`;
    };
    const { answerMcpRequest, transportRequest } = await loadMcpServer();
    const admit = toolAdmission(rt, async () => key, { route: "/v1/mcp", area: MCP_SCOPE, requestId });
    const ctx = { cache: rt.upstreamCache, signal, admit, trace: c.trace };
    const request = transportRequest(c.request.url, (name) => c.header(name));
    const res = await answerMcpRequest(request, body, ctx, unexpected, rt.config.mcpMaxBatch);
    const text = await res.text();
    // The transport's answer as text, not its Response: the key's rate-limit headers go on it, and
    // its length is the metered bytes out.
    const headers = Object.fromEntries(res.headers);
    return text ? new Reply(res.status, text, headers) : Reply.empty(res.status, headers);
  }),
];
