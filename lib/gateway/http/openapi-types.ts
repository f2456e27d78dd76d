/**
 * Gives schema objects of the generated OpenAPI document a `type` where the generator leaves one out
 * without changing what they accept, because the API reference (Scalar) checks each schema object
 * against one variant per `type` and reports any without one as "Expected union value":
 *
 * - `additionalProperties: {}` (zod's record or loose object of unknown values) becomes `true`, which
 *   JSON Schema defines as the same thing: any value is allowed.
 * - a `oneOf`/`anyOf` with no `type` of its own (a discriminated union) takes its branches' type when
 *   they all declare the same one: an object that is one of these objects is an object.
 *
 * Changes the document in place and returns it.
 */
export function withSchemaTypes<T>(document: T): T {
  visit(document);
  return document;
}

function visit(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item);
    return;
  }
  if (!isRecord(node)) return;
  if (isRecord(node.additionalProperties) && Object.keys(node.additionalProperties).length === 0)
    node.additionalProperties = true;
  if (node.type === undefined) {
    const type = sharedBranchType(node.oneOf ?? node.anyOf);
    if (type) node.type = type;
  }
  for (const [key, value] of Object.entries(node)) if (!VALUES.has(key)) visit(value);
}

// Keywords whose values are data, not schemas: an example may hold anything.
const VALUES = new Set(["example", "examples", "default", "const", "enum"]);

function sharedBranchType(branches: unknown): string | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const types = new Set(branches.map((b) => (isRecord(b) ? b.type : undefined)));
  const [type] = types;
  return types.size === 1 && typeof type === "string" ? type : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
