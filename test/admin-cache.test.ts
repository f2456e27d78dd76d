import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearCacheAction } from "../lib/portal/admin/cache-actions.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";

describe("the operator clears the whole response cache from the admin area", () => {
  let gw: TestGateway;
  let xai: FakeLlm;

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({ key: "xai-k", reply: "Kept for a while." });
    Object.assign(process.env, { XAI_API_KEY: "xai-k", UPSTREAM_XAI_URL: xai.url });
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
    await xai?.close();
  });

  const ask = (key: string) =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "cache-control": "max-age=600" },
      body: JSON.stringify({ model: "xai/grok-4", messages: [{ role: "user", content: "Keep this." }] }),
    });

  it("refuses anyone but an operator, then clears every key's entries and audits it", async () => {
    const keys = [(await gw.key()).key, (await gw.key()).key];
    for (const key of keys) expect((await ask(key)).headers.get("x-gateway-cache")).toBe("miss");

    expect(await clearCacheAction(gw.rt, { operator: false, actor: "user:someone" })).toEqual({
      error: "operators only: sign in with an address listed in ADMIN_EMAILS",
    });
    expect((await ask(keys[0]!)).headers.get("x-gateway-cache")).toBe("hit");

    const cleared = await clearCacheAction(gw.rt, { operator: true, actor: "ops@example.com" });
    expect(cleared).toEqual({ message: "Cleared: 2 answers removed from the response cache." });
    for (const key of keys) expect((await ask(key)).headers.get("x-gateway-cache")).toBe("miss");
    const audit = await gw.rt.db.prisma.auditLog.findFirst({ where: { action: "cache.clear" } });
    expect(audit).toMatchObject({ actor: "ops@example.com", detail: { deleted: 2 } });
  });
});
