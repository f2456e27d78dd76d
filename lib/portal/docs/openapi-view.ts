/*
 * The API reference page's reading of this server's OpenAPI document: operations grouped by tag in the
 * document's order, schemas resolved into trees a page can list, and a starting request body for "Try
 * it". No server imports: the page renders in the browser from /openapi.json.
 */

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema };
type Media = Record<string, { schema?: JsonSchema }>;
type RawOperation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Media };
  responses?: Record<string, { description?: string; content?: Media }>;
  "x-gateway-auth"?: string;
  "x-gateway-area"?: string;
};

export type OpenApiDocument = {
  info?: { title?: string; version?: string; description?: string };
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

export type Operation = {
  /** The element id: `tag/<slug>/<METHOD>/<path>`, the form Scalar used, so old links still land. */
  anchor: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  /** "key": a key is needed; "optional": a key counts the call when sent; "none": no key. */
  auth: string;
  /** The key scope (area) the route needs. */
  area?: string;
  parameters: Parameter[];
  body?: { required: boolean; types: string[]; schema?: JsonSchema };
  responses: { status: string; description: string; types: string[]; schema?: JsonSchema }[];
};

export type TagSection = { name: string; slug: string; anchor: string; operations: Operation[] };

const METHODS = ["get", "post", "put", "patch", "delete"];

/** A tag's slug as the home page's area cards link to it (lower case, spaces as hyphens). */
export function tagSlug(tag: string): string {
  return tag.toLowerCase().replaceAll(" ", "-");
}

/** Every operation under its first tag, tags in the order the document first names them. */
export function tagSections(doc: OpenApiDocument): TagSection[] {
  const sections = new Map<string, TagSection>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      let section = sections.get(tag);
      if (!section) {
        section = { name: tag, slug: tagSlug(tag), anchor: `tag/${tagSlug(tag)}`, operations: [] };
        sections.set(tag, section);
      }
      const json = (media?: Media) => media?.["application/json"]?.schema;
      section.operations.push({
        anchor: `${section.anchor}/${method.toUpperCase()}${path}`,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? `${method.toUpperCase()} ${path}`,
        description: op.description,
        auth: op["x-gateway-auth"] ?? "key",
        area: op["x-gateway-area"],
        parameters: op.parameters ?? [],
        body: op.requestBody && {
          required: op.requestBody.required ?? false,
          types: Object.keys(op.requestBody.content ?? {}),
          schema: json(op.requestBody.content),
        },
        responses: Object.entries(op.responses ?? {}).map(([status, r]) => ({
          status,
          description: r.description ?? "",
          types: Object.keys(r.content ?? {}),
          schema: json(r.content),
        })),
      });
    }
  }
  return [...sections.values()];
}

/** The schema a `$ref` names (`#/components/schemas/Name`), with that name; others as they are. */
export function resolve(doc: OpenApiDocument, schema: JsonSchema): { schema: JsonSchema; name?: string } {
  if (!schema.$ref) return { schema };
  const name = schema.$ref.split("/").pop()!;
  return { schema: doc.components?.schemas?.[name] ?? {}, name };
}

/** A schema's type in words: "string", "array of Message", "integer or null", "one of 2 forms". */
export function typeLabel(doc: OpenApiDocument, raw: JsonSchema): string {
  const { schema, name } = resolve(doc, raw);
  if (name) return name;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const labels = alternatives.map((a) => typeLabel(doc, a));
    return [...new Set(labels)].join(" or ");
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const words = types.map((t) => (t === "array" && schema.items ? `array of ${typeLabel(doc, schema.items)}` : t));
  if (schema.nullable) words.push("null");
  return words.length ? words.join(" or ") : schema.properties ? "object" : "any";
}

/** A schema's limits in words: "1 to 200 characters", "at most 500 items", "one of: low, medium, high". */
export function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  const range = (min: number | undefined, max: number | undefined, unit: string) => {
    if (min !== undefined && max !== undefined) out.push(`${min} to ${max}${unit}`);
    else if (min !== undefined) out.push(`at least ${min}${unit}`);
    else if (max !== undefined) out.push(`at most ${max}${unit}`);
  };
  range(schema.minimum ?? schema.exclusiveMinimum, schema.maximum ?? schema.exclusiveMaximum, "");
  range(schema.minLength, schema.maxLength, " characters");
  range(schema.minItems, schema.maxItems, " items");
  if (schema.enum)
    out.push(`one of: ${schema.enum.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ")}`);
  if (schema.format) out.push(`format: ${schema.format}`);
  if (schema.pattern) out.push(`pattern: ${schema.pattern}`);
  if (schema.default !== undefined) out.push(`default: ${JSON.stringify(schema.default)}`);
  return out;
}

export type SchemaField = {
  name: string;
  required: boolean;
  type: string;
  notes: string[];
  description?: string;
  /** The fields of an object (or of an array's objects) inside this one; absent past the depth limit. */
  fields?: SchemaField[];
  /** Each form of a value that may take several (anyOf / oneOf), as its own field list. */
  forms?: { label: string; fields: SchemaField[] }[];
};

/** An object schema's properties (or an array's items' properties), to `depth` levels, never following a ref twice. */
export function fieldsOf(
  doc: OpenApiDocument,
  raw: JsonSchema,
  depth = 4,
  seen: readonly string[] = [],
): SchemaField[] {
  const { schema, name } = resolve(doc, raw);
  if (depth <= 0 || (name && seen.includes(name))) return [];
  const path = name ? [...seen, name] : seen;
  if (schema.items && !schema.properties) return fieldsOf(doc, schema.items, depth, path);
  const merged = schema.allOf?.reduce<JsonSchema>(
    (acc, part) => {
      const p = resolve(doc, part).schema;
      return {
        properties: { ...acc.properties, ...p.properties },
        required: [...(acc.required ?? []), ...(p.required ?? [])],
      };
    },
    { properties: schema.properties, required: schema.required },
  );
  const object = merged ?? schema;
  return Object.entries(object.properties ?? {}).map(([field, rawField]) => {
    const inner = resolve(doc, rawField).schema;
    const alternatives = inner.anyOf ?? inner.oneOf;
    const forms = alternatives
      ?.map((a) => ({ label: typeLabel(doc, a), fields: fieldsOf(doc, a, depth - 1, path) }))
      .filter((f) => f.fields.length > 0);
    const nested = fieldsOf(doc, rawField, depth - 1, path);
    return {
      name: field,
      required: object.required?.includes(field) ?? false,
      type: typeLabel(doc, rawField),
      notes: constraints(inner),
      description: rawField.description ?? inner.description,
      ...(nested.length ? { fields: nested } : {}),
      ...(forms?.length ? { forms } : {}),
    };
  });
}

/**
 * A value that satisfies the schema's required parts, to start a "Try it" body from: an example or
 * default where the document gives one, the first of an enum, else a plain value of the type.
 */
export function exampleOf(doc: OpenApiDocument, raw: JsonSchema, depth = 6): unknown {
  const { schema } = resolve(doc, raw);
  if (depth <= 0) return null;
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return exampleOf(doc, alternatives[0]!, depth - 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object" || (!type && schema.properties)) {
    const required = schema.required ?? [];
    return Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(([k]) => required.includes(k))
        .map(([k, v]) => [k, exampleOf(doc, v, depth - 1)]),
    );
  }
  if (type === "array") {
    const count = Math.max(schema.minItems ?? 0, schema.items && (schema.minItems ?? 0) > 0 ? 1 : 0);
    return schema.items && count > 0 ? [exampleOf(doc, schema.items, depth - 1)] : [];
  }
  if (type === "integer" || type === "number") return schema.minimum ?? schema.exclusiveMinimum ?? 1;
  if (type === "boolean") return false;
  if (type === "string") {
    if (schema.format === "uri" || schema.format === "url") return "https://example.org/";
    if (schema.format === "email") return "someone@example.org";
    if (schema.format === "date") return "2026-01-01";
    return sampleText(schema);
  }
  return null;
}

const SAMPLE_TEXTS = ["Hello", "your-value-here", "example", "sample_1", "en", "1"];

/** A string the schema's length and pattern allow, from a few plain candidates; "Hello" when none fits. */
function sampleText(schema: JsonSchema): string {
  let pattern: RegExp | undefined;
  try {
    pattern = schema.pattern ? new RegExp(schema.pattern, "u") : undefined;
  } catch {
    pattern = undefined;
  }
  const fits = (text: string) =>
    text.length >= (schema.minLength ?? 0) &&
    text.length <= (schema.maxLength ?? Infinity) &&
    (!pattern || pattern.test(text));
  const padded = (text: string) => text.padEnd(schema.minLength ?? 0, "x");
  return SAMPLE_TEXTS.map(padded).find(fits) ?? "Hello";
}
