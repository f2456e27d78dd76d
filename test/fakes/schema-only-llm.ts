import { Ajv } from "ajv";
import { Hono } from "hono";
import { listen } from "../support/listen.ts";

// A model that follows the JSON schema it is sent and nothing else: whatever the prompt asks, it answers
// the least instance the schema allows. A template whose rules live only in its prompt or in the
// gateway's checks fails against it; one whose schema carries them passes.

export type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  minItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  definitions?: Record<string, JsonSchema>;
  $defs?: Record<string, JsonSchema>;
};

/**
 * The least instance of a schema: an object with its required properties only, arrays at `minItems`,
 * numbers at their minimum (0 when unbounded below, or the maximum when that is below 0), strings at
 * their `const`, first `enum` value, or "x" (repeated to `minLength`), the first branch of a union.
 */
export function minimalInstance(schema: JsonSchema, root: JsonSchema = schema): unknown {
  if ("const" in schema) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (branch) return minimalInstance(branch, root);
  if (schema.allOf?.length) return minimalInstance(Object.assign({}, ...schema.allOf), root);
  if (schema.$ref) return minimalInstance(resolve(schema.$ref, root), root);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== "null") ?? "null") : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [key, minimalInstance(schema.properties?.[key] ?? {}, root)]),
      );
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, (_, i) =>
        minimalInstance((Array.isArray(schema.items) ? schema.items[i] : schema.items) ?? {}, root),
      );
    case "integer":
    case "number": {
      const least =
        schema.minimum ??
        (schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : undefined) ??
        Math.min(0, schema.maximum ?? 0);
      return type === "integer" ? Math.ceil(least) : least;
    }
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return "x".repeat(Math.max(1, schema.minLength ?? 1)).slice(0, schema.maxLength);
  }
}

function resolve(ref: string, root: JsonSchema): JsonSchema {
  const [, kind, name] = /^#\/(definitions|\$defs)\/(.+)$/.exec(ref) ?? [];
  const found = kind === "definitions" ? root.definitions?.[name!] : root.$defs?.[name!];
  if (!found) throw new Error(`schema-only fake: cannot resolve ${ref}`);
  return found;
}

type ChatBody = {
  model: string;
  messages: Array<{ role: string; content?: unknown }>;
  response_format?: { type: string; json_schema?: { name?: string; schema?: JsonSchema } };
};

export type FakeSchemaOnlyLlm = {
  url: string;
  /** Every chat request, the schema it carried (none for a plain one) and what was answered. */
  requests: Array<{ body: ChatBody; schema?: JsonSchema; answer: unknown }>;
  /** A schema ajv could not compile, or an answer it found invalid against its schema: both bugs of this test. */
  invalid: string[];
  close(): Promise<void>;
};

/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`, not streamed), the wire xai and openai are
 * reached on, where the AI SDK sends structured output as `response_format: {type: "json_schema",
 * json_schema: {schema}}`. Such a request is answered with `minimalInstance` of its schema as the
 * message content; any other (vision, plain chat) is answered "x".
 */
export async function startFakeSchemaOnlyLlm(options: { key: string }): Promise<FakeSchemaOnlyLlm> {
  const requests: FakeSchemaOnlyLlm["requests"] = [];
  const invalid: string[] = [];
  const ajv = new Ajv({ strict: false, allErrors: true });
  const app = new Hono();
  app.post("/v1/chat/completions", async (c) => {
    if (c.req.header("authorization") !== `Bearer ${options.key}`)
      return c.json({ error: { message: "Incorrect API key provided", type: "invalid_request_error" } }, 401);
    const body = (await c.req.json()) as ChatBody;
    const schema = body.response_format?.json_schema?.schema;
    const answer = schema ? minimalInstance(schema) : undefined;
    if (schema) {
      try {
        if (!ajv.validate(schema, answer)) invalid.push(`${ajv.errorsText()} in ${JSON.stringify(answer)}`);
      } catch (err) {
        invalid.push(`schema does not compile: ${(err as Error).message}`);
      }
    }
    requests.push({ body, schema, answer });
    const content = schema ? JSON.stringify(answer) : "x";
    const promptTokens = JSON.stringify(body.messages).length >> 2;
    const usage = { prompt_tokens: promptTokens, completion_tokens: 7, total_tokens: promptTokens + 7 };
    return c.json({
      id: `chatcmpl-${requests.length}`,
      object: "chat.completion",
      created: 1_760_000_000,
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage,
    });
  });
  const { url, close } = await listen(app.fetch);
  return { url, requests, invalid, close };
}
