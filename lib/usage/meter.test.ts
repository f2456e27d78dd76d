import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendEnv, databaseBackends } from "../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import type { Database } from "../db/client.ts";
import { Meter } from "./meter.ts";
import { listRequests } from "./request-log.ts";
import type { UsageEventInput } from "./usage-event.ts";

const event = (over: Partial<UsageEventInput> = {}): UsageEventInput => ({
  keyId: "key_1",
  requestId: "req",
  method: "POST",
  route: "/v1/llm/chat",
  area: "llm",
  status: 200,
  latencyMs: 12,
  bytesIn: 10,
  bytesOut: 20,
  at: new Date(),
  ...over,
});

describe.each(databaseBackends)("the usage meter on %s", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("writes every event around a poisoned one, stores unsafe text made safe, and drops only the event the database refuses", async () => {
    const { key, id } = await gw.key({ minute: 1000 });
    const headers = { "X-API-Key": key };
    for (let i = 0; i < 3; i++) await gw.request("/v1/key", { headers });
    // What a provider's answer could carry past validation, and an event no cleaning can save (int overflow).
    gw.rt.meter.record(event({ keyId: id, requestId: "nul", provider: "xai", model: "grok\u0000x" }));
    gw.rt.meter.record(
      event({ keyId: id, requestId: "surrogate", provider: "gemini", model: "gemini-2.5-flash\ud800" }),
    );
    gw.rt.meter.record(event({ keyId: id, requestId: "poison", latencyMs: 3e9 }));
    for (let i = 0; i < 4; i++) await gw.request("/v1/key", { headers });

    await gw.rt.meter.flush();
    expect(gw.rt.meter.pendingCount()).toBe(0);
    const events = await gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: id } });
    expect(events).toHaveLength(9);
    expect(events.find((e) => e.requestId === "nul")?.model).toBe("grokx");
    expect(events.find((e) => e.requestId === "surrogate")?.model).toBe("gemini-2.5-flash\ufffd");
    expect(events.some((e) => e.requestId === "poison")).toBe(false);

    // Metering goes on: the next request is written too, and the rollups agree with the events.
    await gw.request("/v1/key", { headers });
    await gw.rt.meter.flush();
    expect(await gw.rt.db.prisma.usageEvent.count({ where: { keyId: id } })).toBe(10);
    const usage = await (await gw.request("/v1/usage", { headers })).json();
    expect(usage.today.requests).toBe(10);
    const metrics = await (await gw.request("/metrics")).text();
    expect(metrics).toMatch(/gateway_usage_events_dropped_total\{reason="rejected"\} 1\b/);
  });

  it("past a key's request-log rate, counts every request in the totals but logs only the rate's rows", async () => {
    const capped = await startTestGateway({ db, env: { REQUEST_LOG_ROWS_PER_KEY_SECOND: "1" } });
    try {
      const { key, id } = await capped.key({ minute: 1000, concurrency: 100 });
      const headers = { "X-API-Key": key };
      const answers = await Promise.all(Array.from({ length: 25 }, () => capped.request("/v1/key", { headers })));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      // Before the write: the log shows only the requests that will have a row.
      const before = await listRequests(capped.rt.db, { keyIds: [id], pending: capped.rt.meter.pendingFor(id) });
      expect(before.entries).toHaveLength(10);
      await capped.rt.meter.flush();
      // A burst of ten seconds' worth at one row a second.
      expect(await capped.rt.db.prisma.usageEvent.count({ where: { keyId: id } })).toBe(10);
      const usage = await (await capped.request("/v1/usage", { headers })).json();
      expect(usage.today.requests).toBe(25);
      const metrics = await (await capped.request("/metrics")).text();
      // 15, and the /v1/usage call itself unless a second passed and refilled a row for it.
      expect(Number(/gateway_request_log_unlogged_total (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(15);
    } finally {
      await capped.close();
    }
  });

  it("writes the rollups of thousands of keys and routes in one flush", async () => {
    const meter = new Meter(gw.rt.db, { flushMs: 60_000, batch: 5000 });
    const { id } = await gw.key();
    // 6,000 distinct rollup rows would take 84,000 parameters as VALUES lists; PostgreSQL allows 65,535.
    for (let i = 0; i < 6000; i++) meter.record(event({ keyId: id, route: `/v1/route/${i}`, requestId: `many-${i}` }));
    await meter.flush();
    expect(meter.pendingCount()).toBe(0);
    expect(meter.rejected).toBe(0);
    const routes = await gw.rt.db.prisma.usageDaily.count({ where: { keyId: id } });
    expect(routes).toBe(6000);
  });

  it("keeps every event, dropping none, while the database does not answer", async () => {
    const backend = await backendEnv(db);
    const down = await openDatabase(loadConfig(backend.env));
    await down.close();
    const errors: unknown[] = [];
    const rejected: unknown[] = [];
    const meter = new Meter(down, {
      flushMs: 60_000,
      batch: 10,
      onError: (err) => errors.push(err),
      onRejected: (err) => rejected.push(err),
    });
    try {
      for (let i = 0; i < 5; i++) meter.record(event({ requestId: `r${i}` }));
      await meter.flush();
      expect(errors).toHaveLength(1);
      expect(rejected).toHaveLength(0);
      expect(meter.pendingCount()).toBe(5);
      expect(meter.rejected).toBe(0);
    } finally {
      await backend.cleanup();
    }
  });
});

/** A database that refuses to answer while `down` is set, counting the writes tried. */
function flakyDatabase() {
  const state = { down: true, writes: 0, written: 0 };
  const refuse = () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432"));
  const db = {
    prisma: {
      $queryRawUnsafe: () => (state.down ? refuse() : Promise.resolve([{ "?column?": 1 }])),
    },
    // The meter writes a batch in one transaction: refused as a whole while the database is down.
    transaction: (fn: (s: { query: () => Promise<unknown[]> }) => Promise<unknown>) => {
      state.writes += 1;
      if (state.down) return refuse();
      state.written += 1;
      return fn({ query: () => Promise.resolve([]) });
    },
  };
  return { db: db as unknown as Database, state };
}

describe("the usage meter while the database is away", () => {
  it("keeps events, does not try a write per event once a write failed, and writes them when it answers", async () => {
    const { db, state } = flakyDatabase();
    const meter = new Meter(db, { flushMs: 60_000, batch: 5 });
    for (let i = 0; i < 5; i++) meter.record(event({ requestId: `r${i}` }));
    await meter.flush();
    expect(meter.pendingCount()).toBe(5);
    const tried = state.writes;
    for (let i = 5; i < 50; i++) meter.record(event({ requestId: `r${i}` }));
    await meter.flush();
    // One write for the explicit flush, none for the 45 events recorded past a full batch.
    expect(state.writes).toBe(tried + 1);
    state.down = false;
    await meter.flush();
    expect(meter.pendingCount()).toBe(0);
    expect(meter.written).toBe(50);
  });

  it("drops the oldest events past maxBuffered and counts them", () => {
    const { db } = flakyDatabase();
    const meter = new Meter(db, { flushMs: 60_000, batch: 1000, maxBuffered: 3 });
    for (let i = 0; i < 5; i++) meter.record(event({ requestId: `r${i}` }));
    expect(meter.pendingCount()).toBe(3);
    expect(meter.dropped).toBe(2);
    expect(meter.pendingFor("key_1").map((e) => e.requestId)).toEqual(["r2", "r3", "r4"]);
  });

  it("on stop, retries a database that is restarting until the events are written", async () => {
    const { db, state } = flakyDatabase();
    const meter = new Meter(db, { flushMs: 100, batch: 100 });
    meter.record(event());
    setTimeout(() => (state.down = false), 350);
    await meter.stop(5_000);
    expect(meter.pendingCount()).toBe(0);
    expect(meter.written).toBe(1);
    expect(state.writes).toBeGreaterThan(1);
  });

  it("on stop, gives up after retryForMs and keeps the count of what is unwritten", async () => {
    const { db } = flakyDatabase();
    const meter = new Meter(db, { flushMs: 100, batch: 100 });
    meter.record(event());
    const started = Date.now();
    await meter.stop(400);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(meter.pendingCount()).toBe(1);
  });

  it("on stop, waits for a stream still open to record its event, and writes it", async () => {
    const { db, state } = flakyDatabase();
    state.down = false;
    const meter = new Meter(db, { flushMs: 60_000, batch: 100 });
    let end!: () => void;
    meter.recordWhen(
      new Promise<void>((resolve) => (end = resolve)).then(() => meter.record(event({ requestId: "stream" }))),
    );
    setTimeout(() => end(), 100);
    await meter.stop();
    expect(meter.written).toBe(1);
  });
});
