import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";

describe("gateway app in process", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("serves /health with the API version", async () => {
    const res = await gw.request("/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", version: "1.0.0" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers /v1/key with the caller's key and remaining quota", async () => {
    const { key, id } = await gw.key({ name: "mine" });
    const res = await gw.request("/v1/key", { headers: { "X-API-Key": key } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.id).toBe(id);
    expect(body.remaining.minute.remaining).toBe(99);
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
  });
});
