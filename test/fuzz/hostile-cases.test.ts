import { describe, expect, it } from "vitest";
import {
  casesForOperation,
  everyFieldCases,
  hostileCases,
  LONG_WORD_BYTES,
  resolvesElsewhere,
  toJson,
} from "./hostile-cases.ts";
import { listOperations, type OpenApiDocument } from "./openapi-operations.ts";
import { seededRandom } from "./seeded-random.ts";

const doc: OpenApiDocument = {
  paths: {
    "/v1/things/{id}": {
      post: {
        "x-gateway-auth": "key",
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string", example: "abc" } },
          { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1 } },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { text: { type: "string", maxLength: 5 }, n: { type: "integer" } },
                required: ["text"],
              },
            },
          },
        },
        responses: { "200": { content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
  },
};
const [op] = listOperations(doc);
const cases = hostileCases(doc, op!, { maxBodyBytes: 100 });
const byLabel = (label: string) => cases.find((c) => c.label === label)!;

describe("hostileCases", () => {
  it("breaks each body property by its type, marking what certainly breaks the schema", () => {
    expect(JSON.parse(byLabel("body text: missing").body as string)).toEqual({});
    expect(byLabel("body text: missing").invalid).toBe(true);
    expect(JSON.parse(byLabel("body text: wrong type").body as string)).toEqual({ text: 12345 });
    expect(byLabel("body text: one past maxLength").invalid).toBe(true);
    expect(byLabel("body text: lone high surrogate").body).toBe('{"text":"a\\ud800b"}');
    expect(byLabel("body n: 1e999 (Infinity when parsed)").body).toBe('{"text":"test","n":1e999}');
  });

  it("sends path values already encoded, never normalised, and knows when dot segments move the route", () => {
    expect(byLabel("path id: encoded-slash traversal").target).toBe("/v1/things/..%2F..%2F..%2Fetc%2Fpasswd?limit=1");
    expect(byLabel("path id: encoded-slash traversal").otherRoute).toBe(false);
    expect(byLabel("path id: raw traversal").otherRoute).toBe(true);
    expect(byLabel("query limit: not a integer").target).toBe("/v1/things/abc?limit=abc");
  });

  it("covers the body as a whole, content types and keys", () => {
    expect(byLabel("body: over the size cap").body!.length).toBeGreaterThan(100);
    expect(byLabel("body: nested 100,000 deep").body!.length).toBe(200_000);
    expect(byLabel("content-type: text/plain").headers["content-type"]).toBe("text/plain");
    expect(byLabel("auth: no key").headers["x-api-key"]).toBe("");
  });
});

describe("casesForOperation", () => {
  it("is the same for the same seed, and gives long work only certainly invalid input", () => {
    const pick = (seed: number, longWork = false) =>
      casesForOperation(doc, op!, 5, seededRandom(seed), { maxBodyBytes: 100, longWork }).map((c) => c.label);
    expect(pick(1)).toEqual(pick(1));
    expect(pick(1)[0]).toBe("baseline (valid-looking input)");
    const long = casesForOperation(doc, op!, 50, seededRandom(1), { maxBodyBytes: 100, longWork: true });
    expect(long.length).toBeGreaterThan(5);
    expect(long.every((c) => c.invalid)).toBe(true);
  });
});

describe("helpers", () => {
  it("writes numbers JSON.stringify cannot", () => {
    expect(toJson({ a: "\u0001raw:-0", b: ["\u0001raw:1e999"] })).toBe('{"a":-0,"b":[1e999]}');
  });
  it("sees dot segments a URL parser resolves", () => {
    expect(resolvesElsewhere("/v1/a/../b?x=..")).toBe(true);
    expect(resolvesElsewhere("/v1/a/..%2Fb")).toBe(false);
  });
});

describe("nested fields", () => {
  const nestedDoc: OpenApiDocument = {
    paths: {
      "/v1/chat": {
        post: {
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["messages"],
                  properties: {
                    messages: {
                      type: "array",
                      items: { type: "object", properties: { content: { type: "string", example: "hi" } } },
                    },
                  },
                },
              },
            },
          },
          responses: {},
        },
      },
    },
  };
  const [chat] = listOperations(nestedDoc);
  const nestedCases = hostileCases(nestedDoc, chat!, { maxBodyBytes: 100 });

  it("breaks the fields of an array property's first item", () => {
    const lone = nestedCases.find((c) => c.label === "body messages[0].content: lone low surrogate")!;
    expect(lone.body).toBe('{"messages":[{"content":"\\udc00"}]}');
    expect(nestedCases.find((c) => c.label === "body messages[0].content: wrong type")!.invalid).toBe(true);
  });
});

describe("everyFieldCases", () => {
  const generateDoc: OpenApiDocument = {
    paths: {
      "/v1/documents/generate": {
        post: {
          parameters: [
            { name: "q", in: "query", required: false, schema: { type: "string" } },
            { name: "lang", in: "query", required: false, schema: { type: "string", enum: ["en"] } },
          ],
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["title", "content"],
                  properties: {
                    title: { type: "string", minLength: 1, maxLength: 300 },
                    content: { type: "string", minLength: 1, maxLength: 500_000 },
                    sections: { type: "array", items: { type: "string" } },
                    format: { type: "string", enum: ["pdf", "docx"] },
                  },
                },
              },
            },
          },
          responses: {},
        },
      },
    },
  };
  const [generate] = listOperations(generateDoc);
  const [long, empty, blank] = everyFieldCases(generateDoc, generate!, { maxBodyBytes: 1024 * 1024 });
  const bodyOf = (c: { body?: string | Buffer }) => JSON.parse(c.body as string);

  it("gives every free-text field one unbroken 100 kB word, within its maxLength and the body cap together", () => {
    const body = bodyOf(long!);
    expect(body.content).toBe("A".repeat(LONG_WORD_BYTES));
    expect(body.title).toBe("A".repeat(300));
    expect(body.sections).toEqual(["A".repeat(LONG_WORD_BYTES)]);
    expect(body.format).toBeUndefined();
    expect(long!.target).toBe(`/v1/documents/generate?q=${"A".repeat(12_000)}`);
    const crowded = everyFieldCases(generateDoc, generate!, { maxBodyBytes: 100_000 })[0]!;
    expect(Buffer.byteLength(crowded.body!)).toBeLessThan(100_000);
  });

  it("empties what the schema lets be empty, and makes the rest whitespace only where it can", () => {
    expect(bodyOf(empty!)).toEqual({ title: "test", content: "test", sections: [] });
    expect(empty!.target).toBe("/v1/documents/generate?q=");
    expect(bodyOf(blank!)).toMatchObject({ title: " \t\n ", content: " \t\n ", sections: [" \t\n "] });
    expect(blank!.target).toBe("/v1/documents/generate?q=%20%09%0A");
    expect([long, empty, blank].every((c) => !c!.invalid)).toBe(true);
  });

  it("joins every run, except for operations that start long work", () => {
    const labels = (longWork: boolean) =>
      casesForOperation(generateDoc, generate!, 1, seededRandom(1), { maxBodyBytes: 1024 * 1024, longWork }).map(
        (c) => c.label,
      );
    expect(labels(false)).toEqual(expect.arrayContaining([long!.label, empty!.label, blank!.label]));
    expect(labels(true)).not.toContain(long!.label);
  });

  it("sends nothing for an operation with no free-text field: it would be the baseline again", () => {
    const [list] = listOperations({ paths: { "/v1/corpus": { get: { responses: {} } } } });
    expect(everyFieldCases(generateDoc, list!, { maxBodyBytes: 1024 })).toEqual([]);
  });
});
