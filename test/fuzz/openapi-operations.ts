/** The slice of an OpenAPI 3.1 document the fuzzer reads. Schemas stay plain JSON (JSON Schema 2020-12). */
export type Schema = Record<string, unknown>;
export type OpenApiDocument = {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
};

export type Parameter = { name: string; in: "path" | "query" | "header"; required: boolean; schema: Schema };

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  /** `x-gateway-auth`: key, optional or none. */
  auth: string;
  parameters: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  jsonBody?: Schema;
  bodyRequired: boolean;
  /** Request media types other than JSON (images, PDF, multipart). */
  otherBodyTypes: string[];
  /** status → media type → JSON pointer of that response's schema in the document. */
  responses: Record<string, Record<string, string>>;
};

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** JSON Pointer escaping (RFC 6901), for addressing a schema inside the document. */
export const pointerToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/** Follows a local `$ref` (`#/components/schemas/X`) until the schema is a plain one. */
export function resolveRef(doc: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 20; hops++) {
    const target = current.$ref.replace(/^#\//, "").split("/");
    let node: unknown = doc;
    for (const token of target) {
      node = (node as Record<string, unknown> | undefined)?.[token.replaceAll("~1", "/").replaceAll("~0", "~")];
    }
    current = node as Schema | undefined;
  }
  return current;
}

/** Every operation in the document, in its order. */
export function listOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const content = ((op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content ??
        {}) as Record<string, { schema?: Schema }>;
      const responses: Operation["responses"] = {};
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, unknown>)) {
        const media = (response as { content?: Record<string, unknown> }).content ?? {};
        responses[status] = Object.fromEntries(
          Object.keys(media).map((type) => [
            type,
            `#/paths/${pointerToken(path)}/${method}/responses/${status}/content/${pointerToken(type)}/schema`,
          ]),
        );
      }
      operations.push({
        method,
        path,
        auth: String(op["x-gateway-auth"] ?? "none"),
        parameters: ((op.parameters ?? []) as Parameter[]).map((p) => ({
          ...p,
          required: Boolean(p.required),
          schema: resolveRef(doc, p.schema) ?? {},
        })),
        jsonBody: resolveRef(doc, content["application/json"]?.schema),
        bodyRequired: Boolean((op.requestBody as { required?: boolean } | undefined)?.required),
        otherBodyTypes: Object.keys(content).filter((type) => type !== "application/json"),
        responses,
      });
    }
  }
  return operations;
}

export const operationName = (op: Pick<Operation, "method" | "path">) => `${op.method.toUpperCase()} ${op.path}`;
