import type { RouteConfig, z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { acceptInput } from "../http/validation.ts";
import { queryObject, type GatewayRequest } from "./request.ts";

type Schema = z.ZodType;
type BodyContent = Record<string, { schema?: unknown } | undefined>;

/** The Content-Types a JSON body is read from, and a form's (as the OpenAPI contract's media types are matched). */
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const MULTIPART_REQUEST = /^multipart\/form-data(;\s?boundary=[a-zA-Z0-9'"()+_,\-./:=?]+)?$/i;
const URLENCODED_REQUEST = /^application\/x-www-form-urlencoded(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

const isJsonMedia = (type: string) => /^application\/([a-z-.]+\+)?json/i.test(type);
const isFormMedia = (type: string) => /^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type);
const isRawMedia = (type: string) => type !== "*/*" && !isJsonMedia(type) && !isFormMedia(type);

const unsupported = () => new GatewayError(415, "Unsupported Media Type");

/**
 * A route's input checked against its contract, in the order the contract lists it: query, path
 * parameters, then the body. Each failure is a 400 naming the fields (validation.ts); a body of a
 * type the route does not take is a 415, unparsable JSON a 400.
 */
export function validatedInput(
  contract: RouteConfig,
  req: GatewayRequest,
  params: Record<string, string> | undefined,
): Input | Promise<Input> {
  const request = contract.request as
    { query?: Schema; params?: Schema; body?: { content?: BodyContent; required?: boolean } } | undefined;
  const query = request?.query ? acceptInput(request.query.safeParse(queryObject(req.search)), "query") : undefined;
  const path = request?.params ? acceptInput(request.params.safeParse(params ?? {}), "param") : undefined;
  const content = request?.body?.content;
  if (!content) return { query, params: path, body: undefined };
  // Only a body is read asynchronously: a GET's input is checked with no promise made.
  return validatedBody(content, req).then((body) => ({ query, params: path, body }));
}

type Input = { query: unknown; params: unknown; body: unknown };

async function validatedBody(content: BodyContent, req: GatewayRequest): Promise<unknown> {
  const types = Object.keys(content);
  const type = req.header("content-type");
  // A route that also takes raw bytes (an image, a PDF) validates only its JSON form here: any other
  // body, or none, is left unread for its handler, which alone can say what it accepts (undefined).
  if (types.some(isRawMedia) && !(type !== undefined && JSON_REQUEST.test(type))) return undefined;
  if (type !== undefined) {
    if (!types.some((declared) => matchesMediaType(type, declared))) throw unsupported();
  } else if (req.hasBody) throw unsupported();
  for (const declared of types) {
    const schema = content[declared]?.schema as Schema | undefined;
    if (!schema) continue;
    // Sent without a body at all: checked as {}, so what is missing is a 400 naming it.
    if (isJsonMedia(declared) && (type === undefined || JSON_REQUEST.test(type))) {
      const value = type === undefined ? {} : parsedJson(await req.text());
      return acceptInput(schema.safeParse(value), "body");
    }
    if (isFormMedia(declared) && type !== undefined && isFormMedia(type)) {
      return acceptInput(schema.safeParse(await formObject(req, type)), "form");
    }
  }
  throw unsupported();
}

function matchesMediaType(type: string, declared: string): boolean {
  if (declared === "*/*") return true;
  if (isJsonMedia(declared)) return JSON_REQUEST.test(type);
  if (isFormMedia(declared)) return MULTIPART_REQUEST.test(type) || URLENCODED_REQUEST.test(type);
  const essence = type.split(";")[0]!.trim().toLowerCase();
  if (declared.endsWith("/*")) return essence.startsWith(declared.slice(0, -1).toLowerCase());
  return essence === declared.toLowerCase();
}

/** A JSON body's value: unparsable is a 400. */
export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GatewayError(400, "Malformed JSON in request body");
  }
}

/** A form's fields as a schema receives them: one value as it is, a repeated name as an array. */
async function formObject(req: GatewayRequest, type: string): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    form = await new Response((await req.bytes()) as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": type },
    }).formData();
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    throw new GatewayError(400, "Malformed form data in request body");
  }
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form) {
    const had = fields[name];
    fields[name] = had === undefined ? value : Array.isArray(had) ? [...(had as unknown[]), value] : [had, value];
  }
  return fields;
}
