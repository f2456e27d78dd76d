import { jsonSchema, zodSchema, type Schema } from "ai";
import type { z } from "zod";

/**
 * The structured output of one templated generation: the model is sent `sent`'s JSON schema (every
 * rule a schema can carry for this input: counts, bounds, values the input fixes), and its answer is
 * parsed by `parse` (the shape, trims and caps). Parsing stays looser than what is sent, so an answer
 * with a day too many or a misnumbered day is still a result the template can fix or report, not a
 * failure.
 */
export function modelSchema<T>(sent: z.ZodType, parse: z.ZodType<T>): Schema<T> {
  const shape = zodSchema(sent);
  return jsonSchema<T>(async () => withoutSafeIntegerBounds(await shape.jsonSchema), {
    validate: async (value) => {
      const parsed = await parse.safeParseAsync(value);
      return parsed.success ? { success: true, value: parsed.data } : { success: false, error: parsed.error };
    },
  });
}

/**
 * Drops the bounds zod writes for every `.int()` (±9007199254740991, the safe-integer range) at any
 * depth, keeping real ones. They tell a model nothing and a model that follows the schema to the letter
 * answers with them (day -9007199254740991). Changes the schema in place and returns it.
 */
export function withoutSafeIntegerBounds<T>(schema: T): T {
  visit(schema);
  return schema;
}

function visit(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const record = node as Record<string, unknown>;
  if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
  if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
  for (const [key, value] of Object.entries(record)) if (!VALUES.has(key)) visit(value);
}

// Keywords whose values are data, not schemas: a default or const may hold any number.
const VALUES = new Set(["const", "enum", "default", "examples"]);
