import { z } from "@hono/zod-openapi";
import type { UpstreamCache } from "../../upstream/cache.ts";

/** What a tool runs with: the runtime's upstream cache (source clients, cached searches) and the caller's signal. */
export type ToolContext = { cache: UpstreamCache; signal: AbortSignal };

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
