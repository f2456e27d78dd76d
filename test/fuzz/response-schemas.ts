import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { OpenApiDocument } from "./openapi-operations.ts";

export type SchemaCheck = { ok: true } | { ok: false; errors: string } | { ok: "uncompilable"; reason: string };

// Error bodies the gateway documents (docs/adr/0009-error-answers-by-surface.md, docs/llm.md): the spec's
// two forms, OpenAI's and Anthropic's on the compatible surfaces, the clinical content service's, and
// JSON-RPC's on /v1/mcp.
const KNOWN_ERROR_SHAPES = {
  anyOf: [
    { type: "object", required: ["error"], properties: { error: { type: "string" } } },
    {
      type: "object",
      required: ["error"],
      properties: { error: { type: "object", required: ["message"], properties: { message: { type: "string" } } } },
    },
    {
      type: "object",
      required: ["type", "error"],
      properties: { type: { const: "error" }, error: { type: "object", required: ["type", "message"] } },
    },
    { type: "object", required: ["success", "error"], properties: { success: { const: false } } },
    {
      type: "object",
      required: ["jsonrpc", "error"],
      properties: { error: { type: "object", required: ["code", "message"] } },
    },
  ],
};

/**
 * Response schemas of an OpenAPI 3.1 document, compiled on first use with Ajv's JSON Schema 2020-12
 * dialect (3.1's). The document is registered whole so `#/components/...` references resolve; OpenAPI's
 * own keywords (`example`, `discriminator`) and formats Ajv lacks (`binary`) are ignored, not errors.
 * A schema that does not compile is reported as such, never taken as passing.
 */
export function responseSchemas(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: false, logger: false });
  addFormats(ajv);
  ajv.addSchema(doc as object, "openapi");
  const compiled = new Map<string, ValidateFunction | string>();
  const errorShape = ajv.compile(KNOWN_ERROR_SHAPES);

  function compile(pointer: string): ValidateFunction | string {
    let entry = compiled.get(pointer);
    if (!entry) {
      try {
        entry = ajv.compile({ $ref: `openapi${pointer}` });
      } catch (err) {
        entry = err instanceof Error ? err.message : String(err);
      }
      compiled.set(pointer, entry);
    }
    return entry;
  }

  return {
    /** Checks a value against the schema at a JSON pointer in the document. */
    check(pointer: string, value: unknown): SchemaCheck {
      const validate = compile(pointer);
      if (typeof validate === "string") return { ok: "uncompilable", reason: validate };
      return validate(value) ? { ok: true } : { ok: false, errors: ajv.errorsText(validate.errors) };
    },
    /** Checks an error body against every error shape the gateway documents. */
    checkErrorShape(value: unknown): SchemaCheck {
      return errorShape(value) ? { ok: true } : { ok: false, errors: "not a documented error shape" };
    },
  };
}

export type ResponseSchemas = ReturnType<typeof responseSchemas>;
