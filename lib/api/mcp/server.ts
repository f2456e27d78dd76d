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
import { concurrencyLimit } from "../../concurrency-limit.ts";
import { GatewayError, RateLimitError } from "../../errors.ts";
import { acceptInput } from "../../gateway/http/validation.ts";
import { inputJsonSchema, runToolCall, type ToolContext } from "../../tools/tool.ts";
import { TOOLS, toolByName } from "../../tools/tools.ts";

const SERVER_INFO = { name: "unified-gateway", version: "1.0.0" };

/** The tools/call messages of one POST that run at once: a batch reaches the upstreams a few calls at a time. */
export const MCP_CALLS_AT_ONCE = 4;

/**
 * tools/list, built once: the same JSON Schemas (of each tool's input: defaulted arguments optional)
 * that GET /v1/tools/ lists. McpServer would convert all 36 zod schemas again on every list (~4 ms).
 */
const LISTING: ListToolsResult = {
  tools: TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: inputJsonSchema(t) as ListToolsResult["tools"][number]["inputSchema"],
  })),
};

/** Called with an error that is not the caller's to see (a bug, not a GatewayError), before it is hidden. */
export type UnexpectedError = (err: unknown) => string;

const failure = (message: string): CallToolResult => ({ content: [{ type: "text", text: message }], isError: true });

/** A GatewayError as a result's text; a refused call's says when to try again, as the 429's Retry-After would. */
const errorText = (err: GatewayError) =>
  err instanceof RateLimitError ? `${err.message} (retry after ${err.retryAfter} s)` : err.message;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Runs one tool for tools/call. Arguments pass the same two input rules as POST /v1/tools/{name}
 * (acceptInput: a message naming the field, no NULs or lone surrogates). A bad argument or a failed
 * run is a tool result with isError, which a model can read and correct; only an unknown tool is a
 * protocol error, as the MCP spec has it. A call the caller's key may not make now (ctx.admit: its
 * limits or budget) is such an error result too, naming the limit and when to retry: a model reads
 * it and waits, and the other answers of a batch stand. The result is JSON text and, when it is an
 * object (the only shape MCP allows there), structuredContent too.
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
    const result = await runToolCall(tool, input, ctx);
    return {
      content: [{ type: "text", text: JSON.stringify(result) ?? "null" }],
      ...(isPlainObject(result) ? { structuredContent: result } : {}),
    };
  } catch (err) {
    return failure(err instanceof GatewayError ? errorText(err) : unexpected(err));
  }
}

/**
 * An MCP server for one HTTP request. A stateless transport answers one request and a Server holds
 * one transport, so each request gets its own; with the listing built above this costs ~0.2 ms.
 * The SDK starts every message of a batch at once: its tools/call messages run MCP_CALLS_AT_ONCE at
 * a time, in order. The POST is one request of the key (the guard admitted and meters it), which
 * pays for its first tools/call; each later one is admitted and metered on its own (ctx.admit).
 */
export function createMcpServer(ctx: ToolContext, unexpected: UnexpectedError): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  const atOnce = concurrencyLimit(MCP_CALLS_AT_ONCE);
  const paidFor = { cache: ctx.cache, signal: ctx.signal };
  let calls = 0;
  server.setRequestHandler(ListToolsRequestSchema, () => LISTING);
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const own = calls++ === 0 ? paidFor : ctx;
    return atOnce(() => callTool(request.params.name, request.params.arguments, own, unexpected));
  });
  return server;
}

/**
 * The JSON-RPC error (400, Invalid Request, as the SDK answers its own batch cap) for a batch of more
 * than `max` messages, or undefined: each message may be a tool call, so a POST is bounded in work as
 * its body is in bytes. Checked before any message runs.
 */
export function oversizedBatch(body: unknown, max: number): Response | undefined {
  if (!Array.isArray(body) || body.length <= max) return undefined;
  const message = `Invalid Request: a batch may hold at most ${max} messages (MCP_MAX_BATCH); this one has ${body.length}`;
  return Response.json(
    { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message } },
    { status: 400 },
  );
}

/** The headers the transport reads of a POST: what the client accepts, the body's type, the MCP session and version. */
const TRANSPORT_HEADERS = ["accept", "content-type", "mcp-session-id", "mcp-protocol-version"];

/**
 * A POST to /v1/mcp as the transport reads it, its body left out (the gateway has parsed it already):
 * the URL and the headers of TRANSPORT_HEADERS the client sent.
 */
export function transportRequest(url: string, header: (name: string) => string | undefined): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = header(name);
    if (value !== undefined) headers.set(name, value);
  }
  return new Request(url, { method: "POST", headers });
}

/**
 * Answers one POST to /v1/mcp whose body the gateway has already capped and parsed (`request` carries
 * its URL and headers: transportRequest). Stateless (no sessionIdGenerator) and JSON
 * (enableJsonResponse): the answer is complete when this resolves, so the request's concurrency slot
 * and metering end with it, as on any other route. A batch of more than `maxBatch` messages is
 * refused whole.
 */
export async function answerMcpRequest(
  request: Request,
  body: unknown,
  ctx: ToolContext,
  unexpected: UnexpectedError,
  maxBatch: number,
): Promise<Response> {
  const oversized = oversizedBatch(body, maxBatch);
  if (oversized) return oversized;
  const server = createMcpServer(ctx, unexpected);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await server.close();
  }
}
