import { resolveRef, type OpenApiDocument, type Schema } from "./openapi-operations.ts";
import { objectShape, sampleValue, schemaType } from "./sample-value.ts";

/**
 * Text a caller writes freely: a string that is not a choice (enum, const), a format (a URL, a date),
 * a pattern, or one branch of a union.
 */
export function isFreeText(schema: Schema): boolean {
  return (
    schemaType(schema) === "string" &&
    !schema.enum &&
    !("const" in schema) &&
    !schema.format &&
    !schema.pattern &&
    !schema.anyOf &&
    !schema.oneOf
  );
}

/** What to put in a field: undefined keeps the value as it was (and walks into an array's items). */
export type Rewrite = {
  text?: (schema: Schema) => string | undefined;
  array?: (schema: Schema) => unknown[] | undefined;
};

/**
 * `value` (a valid-looking sample of `input`) with every free-text field and array rewritten, at any
 * depth: objects' properties (optional ones joining in, sampled, so that every field is reached) and
 * arrays' items. Objects are read as their first object-shaped branch, as sampleValue writes them.
 */
export function rewriteFields(
  doc: OpenApiDocument,
  input: Schema | undefined,
  value: unknown,
  rewrite: Rewrite,
  depth = 0,
): unknown {
  const schema = resolveRef(doc, input) ?? {};
  if (depth > 6) return value;
  if (isFreeText(schema)) return rewrite.text?.(schema) ?? value;
  if (schemaType(schema) === "array") {
    const replaced = rewrite.array?.(schema);
    if (replaced) return replaced;
    if (!Array.isArray(value)) return value;
    const items = value.map((item) => rewriteFields(doc, schema.items as Schema | undefined, item, rewrite, depth + 1));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  const shape = objectShape(doc, schema);
  if (!shape || typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const fields: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  let changed = false;
  for (const [name, property] of Object.entries((shape.properties ?? {}) as Record<string, Schema>)) {
    const current = name in fields ? fields[name] : sampleValue(doc, property, depth + 1);
    const rewritten = rewriteFields(doc, property, current, rewrite, depth + 1);
    // An absent (optional) field joins in only when something in it was rewritten.
    if (rewritten !== current) {
      fields[name] = rewritten;
      changed = true;
    }
  }
  return changed ? fields : value;
}
