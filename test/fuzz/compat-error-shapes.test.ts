import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../support/gateway.ts";
import { judgeAnswer } from "./judge-answer.ts";
import { listOperations, operationName, type OpenApiDocument, type Operation } from "./openapi-operations.ts";
import { responseSchemas, type ResponseSchemas } from "./response-schemas.ts";

// The fuzzer's first finding: the OpenAI- and Anthropic-compatible routes answered errors in their
// surface's shape while /openapi.json declared the spec's `{error: string}`, and their 503 (provider not
// configured) was not declared at all. These are the requests it sent, judged the way it judges them.
describe("compatible surfaces declare the error shapes they answer", () => {
  let gw: TestGateway;
  let key: string;
  let operations: Map<string, Operation>;
  let schemas: ResponseSchemas;

  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.key());
    const doc = (await (await gw.request("/openapi.json")).json()) as OpenApiDocument;
    operations = new Map(listOperations(doc).map((op) => [operationName(op), op]));
    schemas = responseSchemas(doc);
  });
  afterAll(async () => gw?.close());

  it.each([
    ["POST /v1/chat/completions", "/v1/chat/completions", { model: null, messages: [{ role: "system" }] }, 400],
    ["POST /v1/chat/completions", "/v1/chat/completions", { model: "test", messages: [{ role: "system" }] }, 503],
    ["POST /v1/messages", "/v1/messages", { model: "test", max_tokens: 1e308, messages: [] }, 400],
    ["POST /v1/responses", "/v1/responses", { model: "test", input: "test", max_output_tokens: -1 }, 400],
    ["POST /v1/embeddings", "/v1/embeddings", { model: "test", input: "test" }, 503],
    ["GET /v1/responses/{response_id}", "/v1/responses/test", undefined, 404],
    ["GET /v1/models", "/v1/models", undefined, 401],
  ] as const)("%s: %s %j → %i", async (operation, path, body, status) => {
    const res = await gw.request(path, {
      method: body ? "POST" : "GET",
      headers: { "content-type": "application/json", ...(status === 401 ? {} : { "x-api-key": key }) },
      body: body && JSON.stringify(body),
    });
    expect(res.status).toBe(status);
    const answer = {
      status: res.status,
      contentType: res.headers.get("content-type") ?? "",
      body: Buffer.from(await res.arrayBuffer()),
    };
    expect(judgeAnswer(operations.get(operation)!, answer, schemas)).toEqual([]);
  });
});
