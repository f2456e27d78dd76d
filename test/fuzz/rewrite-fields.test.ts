import { describe, expect, it } from "vitest";
import type { OpenApiDocument, Schema } from "./openapi-operations.ts";
import { isFreeText, rewriteFields } from "./rewrite-fields.ts";

const doc: OpenApiDocument = {
  paths: {},
  components: { schemas: { Message: { type: "object", properties: { content: { type: "string" } } } } },
};
const body: Schema = {
  type: "object",
  required: ["title"],
  properties: {
    title: { type: "string", maxLength: 5 },
    format: { type: "string", enum: ["pdf", "docx"] },
    url: { type: "string", format: "uri" },
    note: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    messages: { type: "array", items: { $ref: "#/components/schemas/Message" } },
    options: { type: "object", properties: { depth: { type: "integer" } } },
  },
};
const upper = { text: () => "X" };

describe("isFreeText", () => {
  it("is a string a caller writes, not a choice, a format or a pattern", () => {
    expect(isFreeText({ type: "string" })).toBe(true);
    expect(isFreeText({ type: ["string", "null"] })).toBe(true);
    expect(isFreeText({ type: "string", enum: ["a"] })).toBe(false);
    expect(isFreeText({ type: "string", format: "date" })).toBe(false);
    expect(isFreeText({ type: "string", pattern: "^a$" })).toBe(false);
    expect(isFreeText({ type: "integer" })).toBe(false);
  });
});

describe("rewriteFields", () => {
  it("rewrites every free-text field at any depth, optional ones too, and leaves the rest", () => {
    expect(rewriteFields(doc, body, { title: "test", format: "pdf" }, upper)).toEqual({
      title: "X",
      format: "pdf",
      note: "X",
      tags: ["X"],
      messages: [{ content: "X" }],
    });
  });

  it("replaces arrays when asked, and keeps a field the rewrite declines", () => {
    const empty = { text: (s: Schema) => (s.maxLength ? undefined : ""), array: () => [] };
    expect(rewriteFields(doc, body, { title: "test" }, empty)).toEqual({
      title: "test",
      note: "",
      tags: [],
      messages: [],
    });
  });

  it("returns the same value when nothing is rewritten", () => {
    const value = { title: "test", options: { depth: 1 } };
    expect(rewriteFields(doc, body, value, {})).toBe(value);
  });
});
