// The json_schema check: an answer's text must be a JSON document the policy's schema accepts. The schema
// is compiled once, as the routing file is read (an invalid one is a problem of the file, on its line);
// what a failure reports is where and which rule (ajv's instance path and keyword), never a value.
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * The schema's validator: JSON Schema 2020-12, or draft-07 when the schema says so in `$schema`. An
 * instance per schema, so two policies' schemas may share an `$id`; made once per schema object (the
 * routing file's check compiles it, the policy built from the same file takes it from here).
 */
export function compileAnswerSchema(schema: Record<string, unknown>): ValidateFunction {
  const known = compiled.get(schema);
  if (known) return known;
  const draft07 = typeof schema.$schema === "string" && /draft-0[67]/.test(schema.$schema);
  // Lenient about keywords ajv does not know (an editor's annotations); the meta-schema still checks the rest.
  const ajv = draft07 ? new Ajv({ strict: false }) : new Ajv2020({ strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  compiled.set(schema, validate);
  return validate;
}

/** Why `text` fails the schema ("not JSON", "/items/0 required"), or undefined when it passes. */
export function schemaFailure(validate: ValidateFunction, text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (validate(value)) return undefined;
  const first = validate.errors?.[0];
  return first ? `${first.instancePath || "/"} ${first.keyword}` : "invalid";
}
