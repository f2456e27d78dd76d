import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../lib/app.ts";
import { loadConfig } from "../lib/config.ts";
import { createKey } from "../lib/gateway/keys/key-changes.ts";
import { createRuntime, type Runtime } from "../lib/gateway/runtime/runtime.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { databaseBackends, freshPostgres, tempDir } from "./support/backends.ts";
import { serveGateway, type ServedGateway } from "./support/serve-gateway.ts";

const sharedBackends = process.env.REDIS_URL && databaseBackends.includes("postgres");

/** Two instances on one PostgreSQL and one Redis: the cache's entries are on Redis, so either answers from them. */
describe.runIf(sharedBackends)("the response cache shared by two instances on one Redis", () => {
  let drop: () => Promise<void>;
  let xai: FakeLlm;
  const instances: { rt: Runtime; app: ServedGateway }[] = [];

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({ key: "xai-k", reply: "Shared by both." });
    // Provider credentials are read from the process's environment (test/support/fresh-env.ts restores it).
    Object.assign(process.env, { XAI_API_KEY: "xai-k", UPSTREAM_XAI_URL: xai.url });
    const pg = await freshPostgres();
    drop = pg.drop;
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: process.env.REDIS_URL,
      LOG_LEVEL: "silent",
    };
    for (let i = 0; i < 2; i++) {
      const rt = await createRuntime(loadConfig({ ...env, DATA_DIR: tempDir() }));
      instances.push({ rt, app: await serveGateway(createApp(rt)) });
    }
  });
  afterAll(async () => {
    for (const { rt, app } of instances) {
      await app.close();
      await rt.close();
    }
    await drop?.();
    await xai?.close();
  });

  it("answers on one instance what the other kept, and clears it for both", async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const { key } = await createKey(a.rt.db, { name: "cache-shared" }, "test");
    // A question no earlier run of this test asked: the Redis outlives test runs.
    const body = JSON.stringify({
      model: "xai/grok-4",
      messages: [{ role: "user", content: `Shared ${crypto.randomUUID()}?` }],
    });
    const ask = (at: typeof a) =>
      at.app.request("/v1/chat/completions", {
        method: "POST",
        headers: { "X-API-Key": key, "content-type": "application/json", "cache-control": "max-age=600" },
        body,
      });
    const sent = xai.requests.length;
    const first = await ask(a);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-gateway-cache")).toBe("miss");
    const second = await ask(b);
    expect(second.headers.get("x-gateway-cache")).toBe("hit");
    expect(((await second.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(
      "Shared by both.",
    );
    expect(xai.requests.length).toBe(sent + 1);

    const cleared = await b.app.request("/v1/cache", { method: "DELETE", headers: { "X-API-Key": key } });
    expect(((await cleared.json()) as { deleted: number }).deleted).toBe(1);
    expect((await ask(a)).headers.get("x-gateway-cache")).toBe("miss");
  });
});
