import { z } from "@hono/zod-openapi";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { GatewayError } from "../../errors.ts";
import { acceptInput } from "../../gateway/http/validation.ts";
import type { ToolContext } from "../tools/tool.ts";
import { TOOLS, toolByName } from "../tools/tools.ts";

const SERVER_INFO = { name: "unified-gateway", version: "1.0.0" };

/**
 * tools/list, built once: the same JSON Schemas (of each tool's input: defaulted arguments optional)
 * that GET /v1/tools/ lists. McpServer would convert all 36 zod schemas again on every list (~4 ms).
 */
const LISTING: ListToolsResult = {
  tools: TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: z.toJSONSchema(t.input, { io: "input" }) as ListToolsResult["tools"][number]["inputSchema"],
  })),
};

/** Called with an error that is not the caller's to see (a bug, not a GatewayError), before it is hidden. */
export type UnexpectedError = (err: unknown) => string;

const failure = (message: string): CallToolResult => ({ content: [{ type: "text", text: message }], isError: true });

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Runs one tool for tools/call. Arguments pass the same two input rules as POST /v1/tools/{name}
 * (acceptInput: a message naming the field, no NULs or lone surrogates). A bad argument or a failed
 * run is a tool result with isError, which a model can read and correct; only an unknown tool is a
 * protocol error, as the MCP spec has it. The result is JSON text and, when it is an object (the
 * only shape MCP allows there), structuredContent too.
 */
export async function callTool(
  name: string,
  args: unknown,
  ctx: ToolContext,
  unexpected: UnexpectedError,
): Promise<CallToolResult> {
  const tool = toolByName(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool '${name}': tools/list lists them`);
  try {
    const input = acceptInput(tool.input.safeParse(args ?? {}), "arguments");
    ctx.signal.throwIfAborted();
    const result = await tool.run(input, ctx);
    return {
      content: [{ type: "text", text: JSON.stringify(result) ?? "null" }],
      ...(isPlainObject(result) ? { structuredContent: result } : {}),
    };
  } catch (err) {
    return failure(err instanceof GatewayError ? err.message : unexpected(err));
  }
}

/**
 * An MCP server for one HTTP request. A stateless transport answers one request and a Server holds
 * one transport, so each request gets its own; with the listing built above this costs ~0.2 ms.
 */
export function createMcpServer(ctx: ToolContext, unexpected: UnexpectedError): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => LISTING);
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(request.params.name, request.params.arguments, ctx, unexpected),
  );
  return server;
}

/**
 * Answers one POST to /v1/mcp whose body the gateway has already capped and parsed. Stateless (no
 * sessionIdGenerator) and JSON (enableJsonResponse): the answer is complete when this resolves, so the
 * request's concurrency slot and metering end with it, as on any other route.
 */
export async function answerMcpRequest(
  request: Request,
  body: unknown,
  ctx: ToolContext,
  unexpected: UnexpectedError,
): Promise<Response> {
  const server = createMcpServer(ctx, unexpected);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}
