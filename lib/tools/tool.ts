import { z } from "@hono/zod-openapi";
import { GatewayError } from "../errors.ts";
import type { GuardrailDecision } from "../guardrails/decision.ts";
import type { ScreenedResult } from "../guardrails/tool-screen.ts";
import type { TraceScope } from "../observability/trace-scope.ts";
import type { UpstreamCache } from "../upstream/cache.ts";

/**
 * Admits one tool call against the caller's key before it runs (a refusal is thrown: the 429 of the
 * key's limits or budget) and returns what meters the call's outcome (its status).
 */
export type AdmitToolCall = (tool: string) => Promise<(status: number, guardrails?: GuardrailDecision[]) => void>;

/**
 * What a tool runs with: the runtime's upstream cache (source clients, cached searches), the
 * caller's signal and, where one request or task makes many calls, `admit` (tools/admission.ts).
 * Without it the call rides on the request the guard admitted (POST /v1/tools/{name}: one call).
 * `trace`, when tracing is on: the span (a request's, an agent's) the call's own span goes under.
 */
export type ToolContext = {
  cache: UpstreamCache;
  signal: AbortSignal;
  admit?: AdmitToolCall;
  trace?: TraceScope;
  /**
   * Where an agent reads the result: what it may read of it under the key's guardrail policy (a result
   * carrying a prompt injection withheld), and what the policy decided, for the call's request-log row.
   */
  screen?: (tool: string, result: unknown) => Promise<ScreenedResult>;
};

/**
 * One tool, defined once: the HTTP area lists and runs it, and later agents and MCP reuse the same
 * definition (name, description, zod input, run).
 */
export type Tool<I extends z.ZodObject = z.ZodObject> = {
  name: string;
  module: string;
  description: string;
  input: I;
  run(args: z.infer<I>, ctx: ToolContext): Promise<unknown>;
};

export const defineTool = <I extends z.ZodObject>(tool: Tool<I>): Tool => tool as unknown as Tool;

/**
 * A tool's arguments as JSON Schema (of its input: defaulted arguments are optional): what GET
 * /v1/tools/ and MCP's tools/list publish. The agents' AI SDK converts the same zod input itself, so
 * all three state the same rules (tools.test.ts compares them).
 */
export const inputJsonSchema = (tool: Tool): Record<string, unknown> => z.toJSONSchema(tool.input, { io: "input" });

/**
 * Runs a tool with arguments already parsed, admitted first when the context says so: a refused call
 * throws before any upstream request is made, and an admitted one is metered with its outcome. Traced,
 * it is an `execute_tool <name>` span (the GenAI conventions' name) over its upstream requests.
 */
export async function runToolCall(tool: Tool, args: z.infer<z.ZodObject>, ctx: ToolContext): Promise<unknown> {
  const span = ctx.trace?.child(`execute_tool ${tool.name}`, {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": tool.name,
    "gen_ai.tool.type": "function",
  });
  let done: ((status: number, guardrails?: GuardrailDecision[]) => void) | undefined;
  try {
    done = await ctx.admit?.(tool.name);
    const result = await tool.run(args, span ? { ...ctx, trace: span } : ctx);
    const screened = ctx.screen ? await ctx.screen(tool.name, result) : undefined;
    if (screened?.decisions.length) done?.(200, screened.decisions);
    else done?.(200);
    return screened ? screened.result : result;
  } catch (err) {
    const status = err instanceof GatewayError ? err.status : 500;
    done?.(status);
    span?.fail(String(status));
    throw err;
  } finally {
    span?.end();
  }
}
