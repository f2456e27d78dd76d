import { z, type RouteHandler } from "@hono/zod-openapi";
import { defineArea, type AreaApp } from "../../gateway/http/area.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { untrustedContent } from "../../upstream/untrusted-response.ts";
import { toolAdmission } from "../tools/admission.ts";
import type * as McpServerModule from "./server.ts";

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

const SCOPE = "tools";

const handleMcp: RouteHandler<typeof mcp, GatewayEnv> = async (c) => {
  const rt = c.get("runtime");
  const requestId = c.get("requestId");
  const key = c.get("key")!;
  const signal = c.req.raw.signal;
  // As errorResponse does for a route: a bug's message stays in the log, the caller gets the request id.
  const unexpected = (err: unknown) => {
    if (signal.aborted) return "request aborted";
    rt.logger.error({ err, requestId, route: "/v1/mcp" }, "tool failed");
    return `internal server error (request id ${requestId})`;
  };
  const { answerMcpRequest } = await loadMcpServer();
  const admit = toolAdmission(rt, async () => key, { route: "/v1/mcp", area: SCOPE, requestId });
  const ctx = { cache: rt.upstreamCache, signal, admit };
  const res = await answerMcpRequest(c.req.raw, c.req.valid("json"), ctx, unexpected, rt.config.mcpMaxBatch);
  const text = await res.text();
  const headers = Object.fromEntries(res.headers);
  // Through c.body, not the transport's Response, so the guard's rate-limit headers stay on it and
  // Content-Length gives the meter its bytes out.
  if (!text) return c.body(null, res.status as 202, headers);
  return c.body(text, res.status as 200, { ...headers, "Content-Length": String(Buffer.byteLength(text)) });
};

function registerMcpRoutes(app: AreaApp): void {
  // Tool results are third parties' content, as on /v1/tools.
  app.use("/v1/mcp", untrustedContent());
  app.openapi(mcp, handleMcp);
}

/** MCP (SPEC "Tools", issue #13): the tool registry for MCP clients, on the same keys, limits and metering. */
export default defineArea({ name: "mcp", scope: SCOPE, paths: ["/v1/mcp"], routes: [registerMcpRoutes] });
