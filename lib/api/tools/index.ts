import { z, type RouteHandler } from "@hono/zod-openapi";
import { defineArea, type AreaApp } from "../../gateway/http/area.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { acceptInput } from "../../gateway/http/validation.ts";
import { GatewayError } from "../../errors.ts";
import { untrustedContent } from "../../upstream/untrusted-response.ts";
import { upstreamErrors } from "../data/schemas.ts";
import { inputJsonSchema } from "./tool.ts";
import { TOOLS, toolByName } from "./tools.ts";

const tags = ["Tools"];

// Each tool's JSON Schema is computed once, here, not per request.
const LISTING = {
  count: TOOLS.length,
  tools: TOOLS.map((t) => ({
    name: t.name,
    module: t.module,
    description: t.description,
    schema: inputJsonSchema(t),
  })),
};

const ToolInfo = z
  .object({
    name: z.string(),
    module: z.string(),
    description: z.string(),
    schema: z.record(z.string(), z.unknown()),
  })
  .openapi("ToolInfo");
const ToolList = z.object({ count: z.number().int(), tools: z.array(ToolInfo) });

const listRoute = (path: string) =>
  gatewayRoute("optional", {
    method: "get",
    path,
    summary: "The tools: name, module and the JSON Schema of each one's arguments (no key needed)",
    tags,
    responses: { 200: jsonResponse(ToolList, "Tools, sorted by name") },
  });
const list = listRoute("/v1/tools/");
const listBare = listRoute("/v1/tools");

const handleList: RouteHandler<typeof list, GatewayEnv> = (c) => c.json(LISTING, 200);

const run = gatewayRoute(
  "key",
  {
    method: "post",
    path: "/v1/tools/{tool_name}",
    summary: "Run one tool with a JSON object of its arguments (its schema is in GET /v1/tools/)",
    tags,
    request: {
      params: z.object({ tool_name: z.string().min(1).max(100) }),
      body: {
        content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
        required: false,
      },
    },
    responses: {
      200: jsonResponse(z.object({ tool: z.string(), result: z.unknown() }), "The tool's name and its result"),
      ...keyedErrors,
      ...upstreamErrors,
      404: jsonResponse(ErrorSchema, "No such tool, or the source has no such item"),
    },
  },
  { limitKeyless: false },
);

const handleRun: RouteHandler<typeof run, GatewayEnv> = async (c) => {
  const name = c.req.valid("param").tool_name;
  const tool = toolByName(name);
  if (!tool) throw new GatewayError(404, `no tool '${name}': GET /v1/tools/ lists them`);
  // The body's own validator has already checked it is a JSON object (or absent: no arguments).
  const args = acceptInput(tool.input.safeParse(c.req.valid("json") ?? {}), "body");
  const signal = c.req.raw.signal;
  signal.throwIfAborted();
  const result = await tool.run(args, { cache: c.get("runtime").upstreamCache, signal });
  return c.json({ tool: tool.name, result }, 200);
};

function registerToolRoutes(app: AreaApp): void {
  // A tool's result is a third party's content, as on /v1/data.
  app.use("/v1/tools/*", untrustedContent());
  app.openapi(list, handleList);
  app.openapi(listBare, handleList);
  app.openapi(run, handleRun);
}

/** Tools (SPEC "Tools", issue #13): the data sources as named, schema-described tools for agents and MCP. */
export default defineArea({ name: "tools", scope: "tools", paths: ["/v1/tools/*"], routes: [registerToolRoutes] });
