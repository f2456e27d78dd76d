import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { JsonText } from "../../gateway/http/json-text.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { acceptInput } from "../../gateway/http/validation.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import { upstreamErrors } from "../../data-sources/error-responses.ts";
import { inputJsonSchema, runToolCall } from "../../tools/tool.ts";
import { TOOLS, toolByName } from "../../tools/tools.ts";

const tags = ["Tools"];

const ToolInfo = z
  .object({
    name: z.string(),
    module: z.string(),
    description: z.string(),
    schema: z.record(z.string(), z.unknown()),
  })
  .openapi("ToolInfo");
const ToolList = z.object({ count: z.number().int(), tools: z.array(ToolInfo) });

// Each tool's JSON Schema is computed once, here, and the listing serialised once, not per request.
const LISTING = new JsonText<z.infer<typeof ToolList>>(
  JSON.stringify({
    count: TOOLS.length,
    tools: TOOLS.map((t) => ({
      name: t.name,
      module: t.module,
      description: t.description,
      schema: inputJsonSchema(t),
    })),
  }),
);

// Also answers /v1/tools: the route table ignores a trailing slash.
const list = gatewayRoute("optional", {
  method: "get",
  path: "/v1/tools/",
  summary: "The tools: name, module and the JSON Schema of each one's arguments (no key needed)",
  tags,
  responses: { 200: jsonResponse(ToolList, "Tools, sorted by name") },
});

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

export const toolRoutes: RouteDef[] = [
  route(list, () => LISTING),
  route(run, async (c, { params, body }) => {
    const tool = toolByName(params.tool_name);
    if (!tool) throw new GatewayError(404, `no tool '${params.tool_name}': GET /v1/tools/ lists them`);
    // The body's own validator has already checked it is a JSON object (absent: {}, no arguments).
    const args = acceptInput(tool.input.safeParse(body), "body");
    const signal = c.signal;
    signal.throwIfAborted();
    const result = await runToolCall(tool, args, { cache: c.runtime.upstreamCache, signal, trace: c.trace });
    return { tool: tool.name, result };
  }),
];
