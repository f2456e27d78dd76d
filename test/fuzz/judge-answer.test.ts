import { describe, expect, it } from "vitest";
import { judgeAnswer, type Answer } from "./judge-answer.ts";
import { listOperations, type OpenApiDocument } from "./openapi-operations.ts";
import { responseSchemas } from "./response-schemas.ts";

const json = (schema: object) => ({ content: { "application/json": { schema } } });
const doc: OpenApiDocument = {
  components: {
    schemas: { Error: { type: "object", required: ["error"], properties: { error: { type: "string" } } } },
  },
  paths: {
    "/v1/thing": {
      get: {
        responses: {
          "200": json({ type: "object", required: ["name"], properties: { name: { type: "string" } } }),
          "400": json({ $ref: "#/components/schemas/Error" }),
          "502": json({ $ref: "#/components/schemas/Error" }),
          "201": json({ $ref: "#/components/schemas/Missing" }),
        },
      },
    },
  },
};
const [op] = listOperations(doc);
const schemas = responseSchemas(doc);
const answer = (status: number, body: unknown, contentType = "application/json"): Answer => ({
  status,
  contentType,
  body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
});
const judge = (a: Answer, otherRoute = false) => judgeAnswer(op!, a, schemas, { otherRoute });

describe("judgeAnswer", () => {
  it("passes 2xx bodies that match the declared schema and 4xx in the declared error shape", () => {
    expect(judge(answer(200, { name: "x" }))).toEqual([]);
    expect(judge(answer(400, { error: "bad" }))).toEqual([]);
    expect(judge(answer(404, { error: { message: "no", type: "not_found_error" } }))).toEqual([]);
  });

  it("refuses 500, undeclared 5xx, HTML, non-JSON errors and bodies off their schema", () => {
    expect(judge(answer(500, { error: "boom" }))).toEqual(["server error 500"]);
    expect(judge(answer(503, { error: "down" }))).toEqual(["server error 503"]);
    expect(judge(answer(502, { error: "upstream" }))).toEqual([]);
    expect(judge(answer(404, "<!DOCTYPE html><p>x", "text/html"))[0]).toBe("HTML answer (404)");
    expect(judge(answer(400, "nope", "text/plain"))).toEqual(["400 as text/plain, not JSON"]);
    expect(judge(answer(400, { message: "bad" }))[0]).toMatch(/does not match its schema/);
    expect(judge(answer(200, { name: 1 }))[0]).toMatch(/200 body does not match/);
    expect(judge(answer(202, {}))).toEqual(["undeclared success status 202"]);
  });

  it("records a schema that does not compile instead of passing it", () => {
    expect(judge(answer(201, {}))[0]).toMatch(/declared 201 schema does not compile/);
  });

  it("holds another route's answer only to the rules every answer keeps", () => {
    expect(judge(answer(200, { other: true }), true)).toEqual([]);
    expect(judge(answer(404, { error: "no route" }), true)).toEqual([]);
  });

  it("reports a timeout or broken connection as it is", () => {
    expect(judge({ ...answer(0, ""), failure: "no answer within 10 ms" })).toEqual(["no answer within 10 ms"]);
  });
});
