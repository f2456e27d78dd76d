import { describe, expect, it } from "vitest";
import { withSchemaTypes } from "./openapi-types.ts";

describe("withSchemaTypes", () => {
  it("writes an empty additionalProperties schema as true, at any depth", () => {
    const doc = {
      components: {
        schemas: {
          Loose: { type: "object", additionalProperties: {} },
          Nested: { type: "object", properties: { extra: { type: "object", additionalProperties: {} } } },
          Closed: { type: "object", additionalProperties: false },
          Typed: { type: "object", additionalProperties: { type: "string" } },
        },
      },
    };
    expect(withSchemaTypes(doc).components.schemas).toEqual({
      Loose: { type: "object", additionalProperties: true },
      Nested: { type: "object", properties: { extra: { type: "object", additionalProperties: true } } },
      Closed: { type: "object", additionalProperties: false },
      Typed: { type: "object", additionalProperties: { type: "string" } },
    });
  });

  it("gives a union its branches' type only when they all share one", () => {
    const objects = { oneOf: [{ type: "object" }, { type: "object", properties: {} }] };
    const mixed = { anyOf: [{ type: "string" }, { type: "array" }] };
    const refs = { oneOf: [{ $ref: "#/components/schemas/A" }, { type: "object" }] };
    const typed = { type: "object", oneOf: [{ type: "object" }] };
    withSchemaTypes({ objects, mixed, refs, typed });
    expect(objects).toEqual({ type: "object", oneOf: [{ type: "object" }, { type: "object", properties: {} }] });
    expect(mixed).toEqual({ anyOf: [{ type: "string" }, { type: "array" }] });
    expect(refs).toEqual({ oneOf: [{ $ref: "#/components/schemas/A" }, { type: "object" }] });
    expect(typed).toEqual({ type: "object", oneOf: [{ type: "object" }] });
  });

  it("leaves example and default values alone: they are data, not schemas", () => {
    const schema = {
      type: "object",
      example: { additionalProperties: {}, oneOf: [{ type: "x" }] },
      default: { additionalProperties: {} },
    };
    expect(withSchemaTypes(structuredClone(schema))).toEqual(schema);
  });
});
