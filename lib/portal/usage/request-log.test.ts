import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { usageEvent } from "../../usage/test-events.ts";
import { formatBytes, formatUsd, formatUtcSeconds, shortRequestId } from "../pages/format.ts";
import {
  estimatedCostUsd,
  formValues,
  logHref,
  parseRequestLogParams,
  recentGuardrailDecisions,
  requestDetailView,
  requestIdFromPath,
  requestLogView,
  type RequestLogParams,
} from "./request-log.ts";

const parse = (raw: Record<string, string | string[] | undefined>) => {
  const parsed = parseRequestLogParams(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.params;
};

describe("the request log's query string", () => {
  it("reads the filter form's fields, empty ones as any, times as UTC with `to` including its day or minute", () => {
    expect(parse({})).toEqual({});
    expect(parse({ id: "  ", key: "", status: "", area: "", from: "", to: "" })).toEqual({});
    const p = parse({
      id: " 3f2b-aa=_x ",
      key: "key_abc",
      status: "429",
      area: "llm",
      from: "2026-03-15",
      to: "2026-03-16T12:30",
    });
    expect(p).toMatchObject({ id: "3f2b-aa=_x", key: "key_abc", status: "429", area: "llm" });
    expect(p.from!.at.toISOString()).toBe("2026-03-15T00:00:00.000Z");
    expect(p.to!.at.toISOString()).toBe("2026-03-16T12:31:00.000Z");
    // A day alone as `to` is the whole day; shown again as the minute fields hold it.
    const day = parse({ to: "2026-03-16" });
    expect(day.to!.at.toISOString()).toBe("2026-03-17T00:00:00.000Z");
    expect(formValues(day)).toMatchObject({ to: "2026-03-16T23:59" });
    expect(parse({ to: "2026-03-16T23:59" }).to!.at).toEqual(day.to!.at);
    // A repeated parameter: the first counts.
    expect(parse({ status: ["5xx", "2xx"] }).status).toBe("5xx");
    // A research run's call: its request id and agent.
    expect(parse({ id: "0c1d:worker-3" }).id).toBe("0c1d:worker-3");
  });

  it("names every bad field instead of failing the page", () => {
    const parsed = parseRequestLogParams({
      id: "<script>",
      key: "key one",
      status: "3xx",
      area: "nowhere",
      from: "2026-02-30",
      to: "yesterday",
      before: "abc",
    });
    expect(parsed.ok).toBe(false);
    const errors = parsed.ok ? [] : parsed.errors;
    expect(errors).toEqual([
      "Request id is not a request id (the X-Request-Id of a response)",
      "Key is not a key id",
      "Status must be one of 2xx, 4xx, 429, 5xx",
      "Area is not an area",
      "From must be a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM), UTC",
      "To must be a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM), UTC",
      "Page is not a page of this log: start again from the newest",
    ]);
    expect(parseRequestLogParams({ from: "2026-03-16", to: "2026-03-15" })).toEqual({
      ok: false,
      errors: ["To must be after from"],
    });
  });

  it("keeps the filters in page links, with the cursor only where asked", () => {
    const p = parse({ status: "2xx", area: "data", before: "1773576000000.42" });
    expect(p.before).toEqual({ at: new Date(1773576000000), id: 42n });
    expect(parse({ before: "1773576000000" }).before).toEqual({ at: new Date(1773576000000), id: null });
    expect(logHref("/usage/requests", p)).toBe("/usage/requests?status=2xx&area=data");
    expect(logHref("/usage/requests", p, { before: "5.6" })).toBe("/usage/requests?status=2xx&area=data&before=5.6");
    expect(logHref("/usage/requests", {} as RequestLogParams)).toBe("/usage/requests");
  });

  it("reads a detail page's request id from its path segment", () => {
    expect(requestIdFromPath("0c1d-22")).toBe("0c1d-22");
    expect(requestIdFromPath("run%3Aworker-1")).toBe("run:worker-1");
    expect(requestIdFromPath("run:worker-1")).toBe("run:worker-1");
    for (const bad of ["", "%E0%A4%A", "a b", "a%2Fb", "x".repeat(401)]) expect(requestIdFromPath(bad)).toBeNull();
  });
});

describe("what the request log shows", () => {
  it("estimates a request's cost from the list prices, and nothing where none is known", () => {
    const call = {
      provider: "xai",
      model: "grok-4-fast-reasoning",
      promptTokens: 1_000_000,
      completionTokens: 2_000_000,
    };
    // grok-4-fast: $0.2 in, $0.5 out per million; a suffixed id takes its family's price.
    expect(estimatedCostUsd(call)).toBeCloseTo(1.2);
    expect(estimatedCostUsd({ ...call, completionTokens: null })).toBeCloseTo(0.2);
    expect(estimatedCostUsd({ ...call, model: "no-such-model" })).toBeNull();
    expect(estimatedCostUsd({ ...call, provider: null, model: null })).toBeNull();
    expect(estimatedCostUsd({ ...call, promptTokens: null, completionTokens: null })).toBeNull();
    expect(estimatedCostUsd({ provider: "ollama", model: "llama3", promptTokens: 5, completionTokens: 5 })).toBeNull();
  });

  it("formats times to the second, bytes and small costs readably", () => {
    expect(formatUtcSeconds(new Date("2026-03-15T12:00:07.123Z"))).toBe("2026-03-15 12:00:07 UTC");
    expect([0, 999, 1500, 2_500_000].map(formatBytes)).toEqual(["0 B", "999 B", "1.5 kB", "2.5 MB"]);
    expect([null, 0, 0.000002, 0.0012345, 1.23456].map(formatUsd)).toEqual([
      "—",
      "$0",
      "$0.0000020",
      "$0.0012",
      "$1.2346",
    ]);
    // Generated ids shortened to tell rows apart, a research call's agent kept; short ones whole.
    expect(
      ["78405541-662e-429a-995e-58fff9ee7fec", "78405541-662e-429a-995e-58fff9ee7fec:worker-2", "my-id-7"].map(
        shortRequestId,
      ),
    ).toEqual(["78405541…", "78405541…:worker-2", "my-id-7"]);
  });
});

describe.each(databaseBackends)("the portal's request log views on %s", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db, env: { METER_FLUSH_MS: "3600000" } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("shows a user their own keys' requests only, and the operator every key's with its owner", async () => {
    const alice = await createTestSession(gw.rt.db, "alice@example.test");
    const bob = await createTestSession(gw.rt.db, "bob@example.test");
    const a = await gw.key({ name: "alice key", email: alice.email });
    const b = await gw.key({ name: "bob key", email: bob.email });
    gw.rt.meter.record(usageEvent(a.id, { requestId: "v-alice", at: new Date() }));
    gw.rt.meter.record(usageEvent(b.id, { requestId: "v-bob", at: new Date() }));
    // Alice's is written, Bob's is still in memory: both are found.
    await gw.rt.meter.flush();
    gw.rt.meter.record(
      usageEvent(b.id, {
        requestId: "v-bob-llm",
        route: "/v1/llm/chat",
        area: "llm",
        provider: "xai",
        model: "grok-4-fast",
        promptTokens: 1000,
        completionTokens: 1000,
        at: new Date(),
      }),
    );

    const mine = await requestLogView(gw.rt, { owner: alice.userId }, {});
    expect(mine.rows.map((r) => r.requestId)).toEqual(["v-alice"]);
    expect(mine.rows[0]).toMatchObject({ key: { name: "alice key", email: alice.email }, costUsd: null });
    expect(mine.keys.map((k) => k.name)).toEqual(["alice key"]);
    // Bob's key id in Alice's filter reads as no requests, not as Bob's.
    expect((await requestLogView(gw.rt, { owner: alice.userId }, { key: b.id })).rows).toEqual([]);
    expect(await requestDetailView(gw.rt, { owner: alice.userId }, "v-bob")).toBeNull();

    const bobs = await requestLogView(gw.rt, { owner: bob.userId }, {});
    expect(bobs.rows.map((r) => [r.requestId, r.id === null])).toEqual([
      ["v-bob-llm", true],
      ["v-bob", false],
    ]);
    expect(bobs.rows[0]!.costUsd).toBeCloseTo(0.0007);

    const all = await requestLogView(gw.rt, { operator: true }, {});
    expect(all.rows.map((r) => [r.requestId, r.key?.email])).toEqual([
      ["v-bob-llm", bob.email],
      ["v-bob", bob.email],
      ["v-alice", alice.email],
    ]);
    const found = await requestDetailView(gw.rt, { operator: true }, "v-bob-llm");
    expect(found?.rows.map((r) => [r.requestId, r.key?.name, r.model])).toEqual([
      ["v-bob-llm", "bob key", "grok-4-fast"],
    ]);
    expect(await requestDetailView(gw.rt, { operator: true }, "not a request id")).toBeNull();
  });

  it("lists an owner's latest guarded requests only, their own keys', written or not", async () => {
    const carol = await createTestSession(gw.rt.db, "carol@example.test");
    const dave = await createTestSession(gw.rt.db, "dave@example.test");
    const c = await gw.key({ name: "carol key", email: carol.email });
    const d = await gw.key({ name: "dave key", email: dave.email });
    const decision = (policy: string) => [
      { policy, check: "pii" as const, action: "block" as const, stage: "prompt" as const, found: { card: 1 } },
    ];
    const t0 = Date.now() - 10_000;
    gw.rt.meter.record(usageEvent(c.id, { requestId: "g-plain", at: new Date(t0) }));
    gw.rt.meter.record(usageEvent(c.id, { requestId: "g-old", at: new Date(t0 + 1), guardrails: decision("strict") }));
    gw.rt.meter.record(usageEvent(d.id, { requestId: "g-dave", at: new Date(t0 + 2), guardrails: decision("x") }));
    await gw.rt.meter.flush();
    // Still in memory: found as well.
    gw.rt.meter.record(usageEvent(c.id, { requestId: "g-new", at: new Date(t0 + 3), guardrails: decision("mask") }));

    const mine = await recentGuardrailDecisions(gw.rt, carol.userId);
    expect(mine.map((r) => [r.requestId, r.key?.name, r.guardrails?.[0]?.policy])).toEqual([
      ["g-new", "carol key", "mask"],
      ["g-old", "carol key", "strict"],
    ]);
    expect((await recentGuardrailDecisions(gw.rt, carol.userId, 1)).map((r) => r.requestId)).toEqual(["g-new"]);
    expect((await recentGuardrailDecisions(gw.rt, dave.userId)).map((r) => r.requestId)).toEqual(["g-dave"]);
    const nobody = await createTestSession(gw.rt.db);
    expect(await recentGuardrailDecisions(gw.rt, nobody.userId)).toEqual([]);
  });

  it("pages through the log with the cursor its links carry", async () => {
    const user = await createTestSession(gw.rt.db);
    const k = await gw.key({ name: "paged", email: user.email });
    const t0 = Date.now() - 60_000;
    for (let i = 0; i < 55; i++)
      gw.rt.meter.record(usageEvent(k.id, { requestId: `page-${i}`, at: new Date(t0 + i * 10) }));
    await gw.rt.meter.flush();
    const first = await requestLogView(gw.rt, { owner: user.userId }, {});
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]!.requestId).toBe("page-54");
    const next = new URL(logHref("/usage/requests", {}, { before: first.next! }), "http://portal");
    const second = await requestLogView(gw.rt, { owner: user.userId }, parse(Object.fromEntries(next.searchParams)));
    expect(second.rows.map((r) => r.requestId)).toEqual(["page-4", "page-3", "page-2", "page-1", "page-0"]);
    expect(second.next).toBeNull();
  });
});
