import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { loadConfig } from "../config.ts";
import { readProviderUsage, readUsage, sumUsage } from "./reader.ts";
import { listRequests } from "./request-log.ts";
import { RequestLogRetention } from "./retention.ts";
import { usageEvent } from "./test-events.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("REQUEST_LOG_RETENTION_DAYS", () => {
  it("defaults to 7 days and takes a whole number of days from 1 to 3650", () => {
    expect(loadConfig({}).requestLogRetentionDays).toBe(7);
    expect(loadConfig({ REQUEST_LOG_RETENTION_DAYS: "30" }).requestLogRetentionDays).toBe(30);
    // Unset when empty, as every variable.
    expect(loadConfig({ REQUEST_LOG_RETENTION_DAYS: "" }).requestLogRetentionDays).toBe(7);
    for (const bad of ["0", "-1", "1.5", "3651", "week"])
      expect(() => loadConfig({ REQUEST_LOG_RETENTION_DAYS: bad })).toThrow(/REQUEST_LOG_RETENTION_DAYS/);
  });
});

describe.each(databaseBackends)("request log retention on %s", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    // The runtime's own sweeper keeps 10 years: only the sweepers these tests make delete anything.
    gw = await startTestGateway({ db, env: { METER_FLUSH_MS: "3600000", REQUEST_LOG_RETENTION_DAYS: "3650" } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const now = new Date();
  const daysAgo = (days: number) => new Date(now.getTime() - days * DAY_MS);

  it("deletes request rows past the retention in small batches, and leaves the daily totals as they were", async () => {
    const k = await gw.key({ name: "retained" });
    const old = [8, 9, 10, 30, 365].map((d, i) =>
      usageEvent(k.id, { requestId: `old-${i}`, provider: "xai", promptTokens: 3, at: daysAgo(d) }),
    );
    const kept = [0, 1, 6.9].map((d, i) => usageEvent(k.id, { requestId: `kept-${i}`, at: daysAgo(d) }));
    for (const e of [...old, ...kept]) gw.rt.meter.record(e);
    await gw.rt.meter.flush();

    const from = daysAgo(400).toISOString().slice(0, 10);
    const totals = async () => ({
      usage: sumUsage(await readUsage(gw.rt.db, { keyIds: [k.id], from })),
      providers: await readProviderUsage(gw.rt.db, { keyIds: [k.id], from }),
    });
    const before = await totals();
    expect(before.usage.requests).toBe(8);

    const seen: number[] = [];
    const retention = new RequestLogRetention(gw.rt.db, {
      days: 7,
      batch: 2,
      pauseMs: 0,
      onSwept: (n) => seen.push(n),
    });
    expect(await retention.sweep(now)).toBe(5);
    expect(seen).toEqual([5]);
    const left = await listRequests(gw.rt.db, { keyIds: [k.id] });
    expect(left.entries.map((e) => e.requestId)).toEqual(["kept-0", "kept-1", "kept-2"]);
    // The usage views read the rollups only: a year's totals, tokens included, are unchanged.
    expect(await totals()).toEqual(before);
    // Nothing more to delete.
    expect(await retention.sweep(now)).toBe(0);
  });

  it("sweeps on a timer that does not hold the process open, and stops with the runtime", async () => {
    const k = await gw.key({ name: "timed" });
    gw.rt.meter.record(usageEvent(k.id, { requestId: "timed-old", at: daysAgo(8) }));
    gw.rt.meter.record(usageEvent(k.id, { requestId: "timed-new", at: daysAgo(1) }));
    await gw.rt.meter.flush();

    const retention = new RequestLogRetention(gw.rt.db, { days: 7, firstAfterMs: 10, everyMs: 10 });
    retention.start();
    await expect
      .poll(async () => (await listRequests(gw.rt.db, { keyIds: [k.id] })).entries.map((e) => e.requestId), {
        timeout: 10_000,
      })
      .toEqual(["timed-new"]);
    await retention.stop();
    // Stopped: a row that expires now stays until the next process sweeps.
    gw.rt.meter.record(usageEvent(k.id, { requestId: "timed-after-stop", at: daysAgo(8) }));
    await gw.rt.meter.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await listRequests(gw.rt.db, { keyIds: [k.id] })).entries).toHaveLength(2);
    // The runtime's own sweeper uses the configured retention.
    expect(gw.rt.retention.cutoff(now)).toEqual(daysAgo(3650));
  });
});
