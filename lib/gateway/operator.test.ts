import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { operatorApp } from "./operator.ts";

describe.each(databaseBackends)("the operator endpoint (%s)", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("answers 400, not 500, for a key name or id holding NUL or a lone surrogate, and keeps serving", async () => {
    const app = operatorApp(gw.rt, "tok");
    const headers = { authorization: "Bearer tok", "content-type": "application/json" };
    const create = (body: string) => app.request("/keys", { method: "POST", headers, body });
    for (const body of ['{"name":"laptop\\u0000"}', '{"name":"laptop \\ud800"}']) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/NUL characters or unpaired surrogates/);
    }
    const revoke = await app.request("/keys/a%00b/revoke", { method: "POST", headers });
    expect(revoke.status).toBe(400);
    expect((await revoke.json()).error).toMatch(/^id: /);
    expect((await create('{"name":"laptop"}')).status).toBe(201);
  });
});
