import { resolveRef, type OpenApiDocument, type Schema } from "./openapi-operations.ts";

/** The first non-null type a schema names (`type: ["string", "null"]` is a string). */
export function schemaType(schema: Schema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  if (typeof type === "string") return type;
  return schema.properties ? "object" : undefined;
}

/** The first object-shaped branch of a schema (Form A / Form B bodies are `anyOf` two objects). */
export function objectShape(doc: OpenApiDocument, input: Schema | undefined): Schema | undefined {
  const schema = resolveRef(doc, input);
  if (!schema) return undefined;
  if (schema.properties) return schema;
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const branch of (schema[key] as Schema[] | undefined) ?? []) {
      const shape = objectShape(doc, branch);
      if (shape) return shape;
    }
  }
  return undefined;
}

const FORMAT_SAMPLES: Record<string, string> = {
  uri: "https://example.com/",
  url: "https://example.com/",
  email: "fuzz@example.com",
  date: "2024-01-01",
  "date-time": "2024-01-01T00:00:00Z",
};

/**
 * A plausible valid value for a schema: its example, default or first enum value, else the smallest
 * value of its type. Objects get their required properties and those with an example (or, when none,
 * their first property), so a Form A / Form B body still names one form.
 */
export function sampleValue(doc: OpenApiDocument, input: Schema | undefined, depth = 0): unknown {
  const schema = resolveRef(doc, input) ?? {};
  if ("example" in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const branches = schema[key] as Schema[] | undefined;
    if (branches?.length) return sampleValue(doc, branches[0], depth + 1);
  }
  switch (schemaType(schema)) {
    case "string": {
      const sample = FORMAT_SAMPLES[String(schema.format)] ?? "test";
      const min = Number(schema.minLength ?? 0);
      return sample.padEnd(min, "x").slice(0, Number(schema.maxLength ?? Infinity));
    }
    case "integer":
    case "number": {
      const min = Number(schema.minimum ?? ((schema.exclusiveMinimum as number | undefined) ?? 0) + 1);
      return Math.min(min, Number(schema.maximum ?? Infinity));
    }
    case "boolean":
      return true;
    case "array":
      if (depth > 5) return [];
      return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () =>
        sampleValue(doc, schema.items as Schema | undefined, depth + 1),
      );
    case "object": {
      if (depth > 5) return {};
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required as string[] | undefined) ?? []);
      let names = Object.keys(properties).filter((name) => required.has(name) || "example" in properties[name]!);
      if (!names.length) names = Object.keys(properties).slice(0, 1);
      return Object.fromEntries(names.map((name) => [name, sampleValue(doc, properties[name], depth + 1)]));
    }
    default:
      return "test";
  }
}
