import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../lib/config.ts";
import { createApp } from "../lib/app.ts";
import { createKey, revokeKey } from "../lib/gateway/keys/key-changes.ts";
import { rotateKey } from "../lib/gateway/keys/key-rotation.ts";
import { toKeyRecord } from "../lib/gateway/keys/record.ts";
import { generateKey } from "../lib/gateway/keys/secrets.ts";
import { publishKeyChange } from "../lib/portal/keys/publish-change.ts";
import { createRuntime, type Runtime } from "../lib/gateway/runtime/runtime.ts";
import { databaseBackends, freshPostgres, limitBackends, tempDir } from "./support/backends.ts";
import { addProbeRoutes } from "./support/probe-routes.ts";
import { serveGateway, type ServedGateway } from "./support/serve-gateway.ts";

const sharedBackends = process.env.REDIS_URL && databaseBackends.includes("postgres");

/**
 * Two gateway instances on one PostgreSQL and one Redis: the deployment DESIGN.md scales out to.
 * Runs when DATABASE_URL and REDIS_URL are both set (CI sets them).
 */
describe.runIf(sharedBackends)("two instances sharing Redis and PostgreSQL", () => {
  let drop: () => Promise<void>;
  let a: { rt: Runtime; app: ServedGateway };
  let b: { rt: Runtime; app: ServedGateway };

  beforeAll(async () => {
    const pg = await freshPostgres();
    drop = pg.drop;
    // A slow key poll, so revocation must arrive over Redis pub/sub to pass the 1 s check.
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: process.env.REDIS_URL,
      LOG_LEVEL: "silent",
      KEY_REFRESH_MS: "60000",
      // These check counting shared on Redis, not the in-memory fallback a slow answer would take.
      LIMIT_REDIS_TIMEOUT_MS: "5000",
    };
    const rtA = await createRuntime(loadConfig({ ...env, DATA_DIR: tempDir() }));
    const rtB = await createRuntime(loadConfig({ ...env, DATA_DIR: tempDir() }));
    const appA = createApp(rtA);
    const appB = createApp(rtB);
    addProbeRoutes(appA);
    addProbeRoutes(appB);
    a = { rt: rtA, app: await serveGateway(appA) };
    b = { rt: rtB, app: await serveGateway(appB) };
    expect(rtA.limitBackend).toBe("redis");
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await a?.rt.close();
    await b?.rt.close();
    await drop?.();
  });

  it("never lets a key past its per-minute limit, however requests are spread", async () => {
    const { key } = await createKey(a.rt.db, { name: "shared", minute: 30, concurrency: 1000 }, "test");
    const headers = { "X-API-Key": key };
    const responses = await Promise.all(
      Array.from({ length: 80 }, (_, i) => (i % 2 ? a : b).app.request("/v1/key", { headers })),
    );
    const ok = responses.filter((r) => r.status === 200).length;
    const limited = responses.filter((r) => r.status === 429).length;
    expect(ok).toBe(30);
    expect(limited).toBe(50);
  });

  it("never lets a key past its daily limit across instances", async () => {
    const { key } = await createKey(a.rt.db, { name: "daily", day: 7, concurrency: 1000 }, "test");
    const headers = { "X-API-Key": key };
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).app.request("/v1/key", { headers })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(7);
    const body = await responses.find((r) => r.status === 429)!.json();
    expect(body.error.message).toMatch(/midnight UTC/);
  });

  it("shares the concurrency limit: at most N in flight across both instances", async () => {
    const { key } = await createKey(a.rt.db, { name: "parallel", concurrency: 5 }, "test");
    const headers = { "X-API-Key": key };
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).app.request("/v1/probe/slow?ms=400", { headers })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
    expect((await a.app.request("/v1/probe/slow?ms=0", { headers })).status).toBe(200);
  });

  it("honours a revocation made on one instance on the other within 1 s", async () => {
    const created = await createKey(a.rt.db, { name: "to revoke" }, "test");
    const headers = { "X-API-Key": created.key };
    expect((await b.app.request("/v1/key", { headers })).status).toBe(200);
    const record = await revokeKey(a.rt.db, created.id, "test");
    await a.rt.keyEvents.publish(record!.hash);
    const deadline = Date.now() + 1000;
    let status = 200;
    while (Date.now() < deadline && status === 200) {
      status = (await b.app.request("/v1/key", { headers })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
  });

  it("counts a rotated key and its replacement as one, whichever instance each is used on", async () => {
    const created = await createKey(a.rt.db, { name: "rotating", day: 10, concurrency: 1000 }, "test");
    for (let i = 0; i < 6; i++)
      expect((await b.app.request("/v1/key", { headers: { "X-API-Key": created.key } })).status).toBe(200);
    const rotated = (await rotateKey(a.rt.db, created.id, { graceHours: 1 }, "test"))!;
    const fresh = await a.app.request("/v1/key", { headers: { "X-API-Key": rotated.key } });
    expect((await fresh.json()).remaining.day.remaining).toBe(3);
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? a : b).app.request("/v1/key", { headers: { "X-API-Key": i < 3 ? created.key : rotated.key } }),
      ),
    );
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(3);
  });

  it("serves a key created on one instance at once on another that had looked it up as unknown", async () => {
    const fresh = generateKey();
    const headers = { "X-API-Key": fresh.key };
    expect((await b.app.request("/v1/key", { headers })).status).toBe(401);
    // As a creation on A does: the row, then the announcement; B's key poll is a minute away.
    const row = await a.rt.db.prisma.apiKey.create({
      data: { id: `key_${Date.now()}`, name: "late", prefix: fresh.prefix, hash: fresh.hash },
    });
    await publishKeyChange(a.rt, toKeyRecord(row));
    await expect
      .poll(async () => (await b.app.request("/v1/key", { headers })).status, { timeout: 1000, interval: 20 })
      .toBe(200);
  });
});

describe.runIf(limitBackends.includes("redis") && !sharedBackends)("shared limits", () => {
  it("need DATABASE_URL as well as REDIS_URL", () => {
    expect(sharedBackends).toBeFalsy();
  });
});
