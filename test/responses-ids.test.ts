import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { listen, type Listening } from "./support/listen.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/responses: a stored response's id is the gateway's, and only its key reads it", () => {
  let provider: FakeLlm;
  let server: Listening<http.Server>;
  const t = useGateway({
    fakes: async () => [(provider = await startFakeOpenAICompatible({ key: "x" }))],
    env: () => ({ XAI_API_KEY: "x", UPSTREAM_XAI_URL: provider.url }),
  });
  beforeAll(async () => {
    server = await listen(http.createServer(t.gw.app.node));
  });
  afterAll(() => server?.close());

  const call = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { "content-type": "application/json", "x-api-key": key, "x-request-id": "chosen-by-the-client" },
    });
  const create = (key: string, instructions: string, previous?: string) =>
    call(key, "/v1/responses", {
      method: "POST",
      body: JSON.stringify({ model: "xai/grok-4", input: "Hello?", instructions, previous_response_id: previous }),
    });

  it("gives two answers sent with one X-Request-Id different random ids: key B can neither replace nor read A's", async () => {
    const b = await t.gw.key();
    const fromA = await create(t.key, "as asked by A");
    expect(fromA.status).toBe(200);
    // The request id stays the client's, for its logs and ours.
    expect(fromA.headers.get("x-request-id")).toBe("chosen-by-the-client");
    const a = await fromA.json();
    const fromB = await (await create(b.key, "as asked by B")).json();
    expect(a.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(fromB.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(fromB.id).not.toBe(a.id);

    const mine = await call(t.key, `/v1/responses/${a.id}`);
    expect(mine.status).toBe(200);
    expect(await mine.json()).toMatchObject({ id: a.id, instructions: "as asked by A" });
    expect((await call(b.key, `/v1/responses/${a.id}`)).status).toBe(404);
    expect((await create(b.key, "continuing A's", a.id)).status).toBe(404);
    expect((await call(b.key, `/v1/responses/${a.id}`, { method: "DELETE" })).status).toBe(404);
    expect(await (await call(t.key, `/v1/responses/${a.id}`)).json()).toMatchObject({ instructions: "as asked by A" });
    expect(await (await call(b.key, `/v1/responses/${fromB.id}`)).json()).toMatchObject({
      instructions: "as asked by B",
    });
  });
});
