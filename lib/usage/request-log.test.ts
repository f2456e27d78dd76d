import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import type { UsageEventInput } from "./usage-event.ts";
import {
  cursorAfter,
  findRequest,
  listRequests,
  MAX_PAGE,
  pageSize,
  statusClassOf,
  type RequestLogEntry,
  type RequestLogQuery,
} from "./request-log.ts";
import { EVENT_TIME, usageEvent } from "./test-events.ts";

const at = (offsetMs: number) => new Date(EVENT_TIME.getTime() + offsetMs);

describe("request log classes and page sizes", () => {
  it("puts statuses in the dashboards' disjoint classes, and caps the page size", () => {
    expect([200, 204, 302, 400, 404, 429, 500, 503].map(statusClassOf)).toEqual([
      "2xx",
      "2xx",
      "2xx",
      "4xx",
      "4xx",
      "429",
      "5xx",
      "5xx",
    ]);
    expect([undefined, 0, 10, 10_000].map(pageSize)).toEqual([50, 1, 10, MAX_PAGE]);
  });
});

describe.each(databaseBackends)("the request log on %s", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    // No timed flush: each test decides when events are written. The test events happen on one day
    // in March 2026: the runtime's own retention sweep must not take them while the suite runs.
    gw = await startTestGateway({ db, env: { METER_FLUSH_MS: "3600000", REQUEST_LOG_RETENTION_DAYS: "3650" } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  /** Records the events and writes them. */
  const write = async (events: UsageEventInput[]) => {
    for (const e of events) gw.rt.meter.record(e);
    await gw.rt.meter.flush();
  };
  const ids = (entries: RequestLogEntry[]) => entries.map((e) => e.requestId);

  it("finds a keyed request by the X-Request-Id its response carried, a moment after it and once it is written", async () => {
    const mine = await gw.key({ name: "mine" });
    const other = await gw.key({ name: "other" });
    const res = await gw.request("/v1/key", { headers: { "X-API-Key": mine.key } });
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id")!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    // Not written yet: found among the events this instance holds.
    const pending = gw.rt.meter.pendingFor(mine.id);
    const unwritten = await findRequest(gw.rt.db, requestId, { keyIds: [mine.id], pending });
    expect(unwritten.entries).toEqual([
      expect.objectContaining({ id: null, keyId: mine.id, requestId, method: "GET", route: "/v1/key", status: 200 }),
    ]);
    const listed = await listRequests(gw.rt.db, { keyIds: [mine.id], requestId, pending });
    expect(ids(listed.entries)).toEqual([requestId]);

    await gw.rt.meter.flush();
    const written = await findRequest(gw.rt.db, requestId, {
      keyIds: [mine.id],
      pending: gw.rt.meter.pendingFor(mine.id),
    });
    expect(written.entries).toHaveLength(1);
    expect(written.entries[0]!.id).toMatch(/^\d+$/);
    // Read back as it was recorded, the latency rounded and the time to the millisecond as the meter writes them.
    expect({ ...written.entries[0], id: null }).toEqual(unwritten.entries[0]);

    // Another user's keys do not see it; the operator's view (no keys given) does.
    expect((await findRequest(gw.rt.db, requestId, { keyIds: [other.id] })).entries).toEqual([]);
    expect((await findRequest(gw.rt.db, requestId)).entries).toHaveLength(1);
    expect((await findRequest(gw.rt.db, "no-such-request", { keyIds: [mine.id] })).entries).toEqual([]);
  });

  it("keeps what explains a request: the error its caller was answered with, its user agent and its tags", async () => {
    const tagged = await gw.key({ name: "tagged", minute: 2 });
    const send = (headers: Record<string, string>, body: object = {}) =>
      gw.request("/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${tagged.key}`, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const tags = JSON.stringify({ feature: "search", user: "u-1", beta: true });
    const invalid = await send({ "user-agent": "tagger/1.0", "x-gateway-metadata": tags });
    expect(invalid.status).toBe(400);
    const badTags = await send({ "x-gateway-metadata": "{not json" });
    expect(badTags.status).toBe(400);
    expect(JSON.stringify(await badTags.json())).toContain("x-gateway-metadata is not JSON");
    const limited = await send({});
    expect(limited.status).toBe(429);

    const find = async (res: Response) => {
      const requestId = res.headers.get("x-request-id")!;
      const pending = gw.rt.meter.pendingFor(tagged.id);
      return (await findRequest(gw.rt.db, requestId, { keyIds: [tagged.id], pending })).entries[0]!;
    };
    const check = async () => {
      expect(await find(invalid)).toMatchObject({
        status: 400,
        error: expect.stringContaining("messages"),
        userAgent: "tagger/1.0",
        tags: { feature: "search", user: "u-1", beta: "true" },
      });
      expect(await find(badTags)).toMatchObject({
        status: 400,
        error: expect.stringContaining("x-gateway-metadata"),
        tags: null,
      });
      expect(await find(limited)).toMatchObject({ status: 429, error: expect.stringMatching(/rate limit|minute/i) });
      const byTag = await listRequests(gw.rt.db, {
        keyIds: [tagged.id],
        tag: { name: "feature", value: "search" },
        pending: gw.rt.meter.pendingFor(tagged.id),
      });
      expect(ids(byTag.entries)).toEqual([invalid.headers.get("x-request-id")]);
      const none = await listRequests(gw.rt.db, { keyIds: [tagged.id], tag: { name: "feature", value: "other" } });
      expect(none.entries).toEqual([]);
    };
    // Not written yet, then written: the same either way.
    await check();
    await gw.rt.meter.flush();
    await check();
  });

  it("filters by key, status class, area, time and exact request id, newest first", async () => {
    const a = await gw.key({ name: "a" });
    const b = await gw.key({ name: "b" });
    await write([
      usageEvent(a.id, { requestId: "f-ok", at: at(1000) }),
      usageEvent(a.id, { requestId: "f-redirect", status: 302, at: at(2000) }),
      usageEvent(a.id, { requestId: "f-404", status: 404, at: at(3000) }),
      usageEvent(a.id, { requestId: "f-429", status: 429, at: at(4000) }),
      usageEvent(a.id, { requestId: "f-502", status: 502, at: at(5000) }),
      usageEvent(a.id, { requestId: "f-llm", route: "/v1/llm/chat", area: "llm", provider: "xai", at: at(6000) }),
      usageEvent(b.id, { requestId: "f-b", at: at(7000) }),
    ]);
    const list = async (q: RequestLogQuery) => ids((await listRequests(gw.rt.db, q)).entries);
    const keyIds = [a.id];

    expect(await list({ keyIds })).toEqual(["f-llm", "f-502", "f-429", "f-404", "f-redirect", "f-ok"]);
    expect(await list({ keyIds: [a.id, b.id], from: at(6000) })).toEqual(["f-b", "f-llm"]);
    expect(await list({ keyIds, status: "2xx" })).toEqual(["f-llm", "f-redirect", "f-ok"]);
    expect(await list({ keyIds, status: "4xx" })).toEqual(["f-404"]);
    expect(await list({ keyIds, status: "429" })).toEqual(["f-429"]);
    expect(await list({ keyIds, status: "5xx" })).toEqual(["f-502"]);
    expect(await list({ keyIds, area: "llm" })).toEqual(["f-llm"]);
    // From inclusive, to exclusive.
    expect(await list({ keyIds, from: at(2000), to: at(4000) })).toEqual(["f-404", "f-redirect"]);
    expect(await list({ keyIds, requestId: "f-404" })).toEqual(["f-404"]);
    // Exact: neither a prefix nor another key's request.
    expect(await list({ keyIds, requestId: "f-4" })).toEqual([]);
    expect(await list({ keyIds, requestId: "f-b" })).toEqual([]);
    expect(await list({ keyIds: [] })).toEqual([]);
  });

  it("pages newest first on (created_at, id): ties kept in order, nothing twice, and rows written meanwhile never shift a page", async () => {
    const k = await gw.key({ name: "paged" });
    // Three share one millisecond: only the id orders them.
    await write(
      [0, 1000, 1000, 1000, 2000, 3000, 4000].map((ms, i) => usageEvent(k.id, { requestId: `p-${i}`, at: at(ms) })),
    );
    const all = ids((await listRequests(gw.rt.db, { keyIds: [k.id] })).entries);
    expect(all).toEqual(["p-6", "p-5", "p-4", "p-3", "p-2", "p-1", "p-0"]);

    const first = await listRequests(gw.rt.db, { keyIds: [k.id], limit: 2 });
    expect(ids(first.entries)).toEqual(["p-6", "p-5"]);
    // Newer rows arrive: the next page still starts where the first ended.
    await write([usageEvent(k.id, { requestId: "p-new", at: at(9000) })]);
    const seen = [...ids(first.entries)];
    let cursor = first.next;
    while (cursor) {
      const page = await listRequests(gw.rt.db, { keyIds: [k.id], limit: 2, cursor });
      seen.push(...ids(page.entries));
      cursor = page.next;
    }
    expect(seen).toEqual(all);
  });

  it("merges events not yet written by time, shows an event being written once, and pages past them", async () => {
    const k = await gw.key({ name: "pending" });
    const written = usageEvent(k.id, { requestId: "m-written", at: at(2000) });
    await write([usageEvent(k.id, { requestId: "m-old", at: at(0) }), written]);
    const pending = [
      usageEvent(k.id, { requestId: "m-pending-new", at: at(3000) }),
      usageEvent(k.id, { requestId: "m-pending-mid", at: at(1000) }),
      // Written between the snapshot of pending events and the table read: in both, shown once.
      written,
      // Another key's: not this view's.
      usageEvent("key_elsewhere", { requestId: "m-elsewhere", at: at(3000) }),
    ];
    const page = await listRequests(gw.rt.db, { keyIds: [k.id], pending });
    expect(ids(page.entries)).toEqual(["m-pending-new", "m-written", "m-pending-mid", "m-old"]);
    expect(page.entries.map((e) => e.id === null)).toEqual([true, false, true, false]);

    // A page ending on an unwritten event continues with everything older.
    const first = await listRequests(gw.rt.db, { keyIds: [k.id], pending, limit: 1 });
    expect(ids(first.entries)).toEqual(["m-pending-new"]);
    expect(first.next).toEqual(cursorAfter(first.entries[0]!));
    const rest = await listRequests(gw.rt.db, { keyIds: [k.id], pending, cursor: first.next! });
    expect(ids(rest.entries)).toEqual(["m-written", "m-pending-mid", "m-old"]);
    expect(rest.next).toBeNull();
  });

  it("shows the model calls a research run made for the request, and only its own", async () => {
    const k = await gw.key({ name: "research" });
    const other = await gw.key({ name: "research-other" });
    const request = usageEvent(k.id, {
      requestId: "run-1",
      method: "POST",
      route: "/v1/orchestrate/dream-cascade",
      area: "orchestrate",
      latencyMs: 5000,
      at: at(10_000),
    });
    const call = (keyId: string, id: string, ms: number) =>
      usageEvent(keyId, {
        requestId: id,
        method: "AGENT",
        route: "/v1/orchestrate/dream-cascade",
        area: "orchestrate",
        provider: "xai",
        model: "grok-4-fast",
        promptTokens: 10,
        completionTokens: 5,
        at: at(ms),
      });
    await write([
      call(k.id, "run-1:worker-1", 6000),
      call(k.id, "run-1:worker-2", 7000),
      request,
      // Not this run's: another key's, a longer id that shares the prefix, and a call outside the run's time.
      call(other.id, "run-1:worker-3", 7000),
      call(k.id, "run-10:worker-1", 7000),
      call(k.id, "run-1:stale", 60_000),
    ]);
    const pending = [call(k.id, "run-1:summary", 9500)];

    const detail = await findRequest(gw.rt.db, "run-1", { keyIds: [k.id], pending });
    expect(ids(detail.entries)).toEqual(["run-1"]);
    expect(ids(detail.calls)).toEqual(["run-1:worker-1", "run-1:worker-2", "run-1:summary"]);
    // A call is a request of its own too: found by its id, with no calls of its own.
    expect(await findRequest(gw.rt.db, "run-1:worker-1", { keyIds: [k.id] })).toMatchObject({
      entries: [{ requestId: "run-1:worker-1", promptTokens: 10, completionTokens: 5 }],
      calls: [],
    });
  });
});
