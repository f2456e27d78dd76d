import { describe, expect, it } from "vitest";
import { constraints, exampleOf, fieldsOf, tagSections, typeLabel, type OpenApiDocument } from "./openapi-view.ts";

const doc: OpenApiDocument = {
  paths: {
    "/v1/llm/chat": {
      post: {
        summary: "Chat",
        tags: ["LLM"],
        "x-gateway-auth": "key",
        "x-gateway-area": "llm",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  messages: { type: "array", items: { $ref: "#/components/schemas/Message" }, minItems: 1 },
                  temperature: { type: "number", minimum: 0, maximum: 2 },
                  thinking: {
                    anyOf: [
                      { type: "object", properties: { type: { type: "string", enum: ["adaptive"] } } },
                      { type: "object", properties: { budget_tokens: { type: "integer", minimum: 1024 } } },
                    ],
                  },
                },
                required: ["messages"],
              },
            },
          },
        },
        responses: { "200": { description: "The answer", content: { "application/json": { schema: {} } } } },
      },
    },
    "/health": { get: { summary: "Health", tags: ["Status"], "x-gateway-auth": "none", responses: {} } },
    "/v1/llm/models": { get: { tags: ["LLM"], responses: {} } },
  },
  components: {
    schemas: {
      Message: {
        type: "object",
        properties: {
          role: { type: "string", enum: ["user", "assistant"] },
          content: { type: "string" },
          replies: { type: "array", items: { $ref: "#/components/schemas/Message" } },
        },
        required: ["role", "content"],
      },
    },
  },
};

describe("the API reference's reading of the OpenAPI document", () => {
  it("groups operations by their first tag in the document's order, anchored as Scalar did", () => {
    const sections = tagSections(doc);
    expect(sections.map((s) => [s.name, s.anchor, s.operations.map((o) => o.anchor)])).toEqual([
      ["LLM", "tag/llm", ["tag/llm/POST/v1/llm/chat", "tag/llm/GET/v1/llm/models"]],
      ["Status", "tag/status", ["tag/status/GET/health"]],
    ]);
    const chat = sections[0]!.operations[0]!;
    expect(chat).toMatchObject({ auth: "key", area: "llm", body: { required: true, types: ["application/json"] } });
    expect(sections[0]!.operations[1]!.summary).toBe("GET /v1/llm/models");
  });

  it("words types and limits", () => {
    expect(typeLabel(doc, { type: "array", items: { $ref: "#/components/schemas/Message" } })).toBe("array of Message");
    expect(typeLabel(doc, { type: ["string", "null"] })).toBe("string or null");
    expect(constraints({ type: "string", minLength: 1, maxLength: 200, enum: ["a", "b"], default: "a" })).toEqual([
      "1 to 200 characters",
      "one of: a, b",
      'default: "a"',
    ]);
  });

  it("lists fields through references, never following one into itself, with each form of a union", () => {
    const body = tagSections(doc)[0]!.operations[0]!.body!.schema!;
    const fields = fieldsOf(doc, body);
    expect(fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ["messages", "array of Message", true],
      ["temperature", "number", false],
      ["thinking", "object", false],
    ]);
    const message = fields[0]!.fields!;
    expect(message.map((f) => f.name)).toEqual(["role", "content", "replies"]);
    // A Message inside a Message is named, not expanded again.
    expect(message[2]!.fields).toBeUndefined();
    expect(fields[2]!.forms!.map((f) => f.fields.map((x) => x.name))).toEqual([["type"], ["budget_tokens"]]);
  });

  it("starts a body from the required parts, the first of each enum, and strings that fit their pattern", () => {
    const body = tagSections(doc)[0]!.operations[0]!.body!.schema!;
    expect(exampleOf(doc, body)).toEqual({ messages: [{ role: "user", content: "Hello" }] });
    expect(exampleOf(doc, { type: "string", pattern: "^[\\x21-\\x7e]{12,4096}$" })).toBe("your-value-here");
    expect(exampleOf(doc, { type: "integer", minimum: 5 })).toBe(5);
  });
});
