import { z } from "@hono/zod-openapi";
import type { JsonSchema } from "json-schema-faker";
import type { TableEntry } from "../../lib/gateway/pipeline/route-table.ts";
import { acceptedInstance } from "./schema-instances.ts";

/** A request a route's contract accepts: its concrete path (query included) and JSON body, if it takes one. */
export type RouteInput = { path: string; body?: string };

type Schema = z.ZodType;
type BodyContent = Record<string, { schema?: unknown } | undefined>;

/**
 * A value for one part of a route's input (query, path parameters, body) that its zod schema accepts,
 * made from the schema's JSON Schema by acceptedInstance; a string naming why when none is accepted.
 */
function accepted(schema: Schema, part: string): Record<string, unknown> | string {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  } catch (err) {
    return `its ${part} has no JSON Schema (${(err as Error).message})`;
  }
  try {
    const found = acceptedInstance(json as Exclude<JsonSchema, boolean>, (value) => schema.safeParse(value).success);
    return found ? found.args : `no generated ${part} passes its contract`;
  } catch (err) {
    return `no ${part} can be generated (${(err as Error).message.slice(0, 80)})`;
  }
}

const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** A valid request for the route, or why none could be made. */
export function validRouteInput(entry: TableEntry): RouteInput | string {
  const request = entry.def.contract.request as
    { query?: Schema; params?: Schema; body?: { content?: BodyContent } } | undefined;
  let path = entry.template;
  if (request?.params) {
    const params = accepted(request.params, "path parameters");
    if (typeof params === "string") return params;
    path = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(text(params[name] ?? "x")));
  }
  if (request?.query) {
    const query = accepted(request.query, "query");
    if (typeof query === "string") return query;
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) search.append(name, text(one));
    if (search.size > 0) path += `?${search}`;
  }
  const content = request?.body?.content;
  if (!content) return { path };
  const schema = content["application/json"]?.schema as Schema | undefined;
  if (!schema) return `its body is not JSON (${Object.keys(content).join(", ")})`;
  const body = accepted(schema, "body");
  if (typeof body === "string") return body;
  return { path, body: JSON.stringify(body) };
}
