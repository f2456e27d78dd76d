import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendEnv, databaseBackends } from "../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { applyMigrations, readMigrations } from "../db/migrate.ts";
import { latencyBucket } from "./latency-histogram.ts";
import { rollUp } from "./roll-up.ts";
import { groupUsage, readUsage, sumUsage, type UsageRow } from "./reader.ts";
import { EVENT_TIME, usageEvent } from "./test-events.ts";

describe("summing and grouping usage rows", () => {
  it("adds rows up, histograms bucket by bucket, and groups them by a recorded field", () => {
    const rows = rollUp([
      usageEvent("a", { latencyMs: 3 }),
      usageEvent("a", { route: "/v1/llm/chat", area: "llm", status: 429, latencyMs: 3, promptTokens: 2 }),
      usageEvent("b", { status: 502, latencyMs: 700, at: new Date("2026-03-14T23:59:59Z") }),
    ]);
    expect(rows.map((r) => [r.keyId, r.day, r.area, r.route])).toEqual([
      ["a", "2026-03-15", "data", "/v1/data/:source"],
      ["a", "2026-03-15", "llm", "/v1/llm/chat"],
      ["b", "2026-03-14", "data", "/v1/data/:source"],
    ]);
    const sums = sumUsage(rows);
    // A 429 is a client error and rate limited too, as the rollups count it.
    expect(sums).toMatchObject({ requests: 3, ok: 1, client: 1, server: 1, limited: 1, latency: 706, tokens: 2 });
    expect(sums.latencyHist[0]).toBe(2);
    expect(sums.latencyHist[latencyBucket(700)]).toBe(1);
    expect(sumUsage([])).toMatchObject({ requests: 0, latencyHist: [] });
    expect([...groupUsage(rows, "area")].map(([area, rs]) => [area, rs.length])).toEqual([
      ["data", 2],
      ["llm", 1],
    ]);
  });
});

describe.each(databaseBackends)("reading usage on %s", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    // No timed flush: the test decides when events are written.
    gw = await startTestGateway({ db, env: { METER_FLUSH_MS: "3600000" } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const byRoute = (rows: UsageRow[]) =>
    Object.fromEntries(rows.map((r) => [r.route, { area: r.area, requests: r.requests }]));

  it("records the area each route is served under, and reads the same rows before and after they are written", async () => {
    const { key, id } = await gw.key({ minute: 1000 });
    const headers = { "X-API-Key": key };
    for (let i = 0; i < 2; i++) expect((await gw.request("/v1/key", { headers })).status).toBe(200);
    expect((await gw.request("/v1/usage", { headers })).status).toBe(200);
    expect((await gw.request("/v1/generators/dadjokes/random", { headers })).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const expected = {
      "/v1/key": { area: "account", requests: 2 },
      "/v1/usage": { area: "account", requests: 1 },
      // Served by the generators folder, under the create area's scope: recorded as "create".
      "/v1/generators/:generator/random": { area: "create", requests: 1 },
    };

    const pending = gw.rt.meter.pendingFor(id);
    expect(pending).toHaveLength(4);
    const unwritten = await readUsage(gw.rt.db, { keyIds: [id], from: today, pending });
    expect(byRoute(unwritten)).toEqual(expected);

    await gw.rt.meter.flush();
    const written = await readUsage(gw.rt.db, { keyIds: [id], from: today, pending: gw.rt.meter.pendingFor(id) });
    expect(byRoute(written)).toEqual(expected);
    expect(written).toEqual(expect.arrayContaining(unwritten));
    const events = await gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: id } });
    expect(Object.fromEntries(events.map((e) => [e.route, e.area]))).toEqual({
      "/v1/key": "account",
      "/v1/usage": "account",
      "/v1/generators/:generator/random": "create",
    });
    const areas = Object.fromEntries(
      [...groupUsage(written, "area")].map(([area, rs]) => [area, sumUsage(rs).requests]),
    );
    expect(areas).toEqual({ account: 3, create: 1 });
  });

  it("reads only the keys and days asked for, pending events included", async () => {
    const a = await gw.key({ name: "a" });
    const b = await gw.key({ name: "b" });
    const yesterday = new Date(EVENT_TIME.getTime() - 86_400_000);
    for (const e of [usageEvent(a.id), usageEvent(a.id, { at: yesterday }), usageEvent(b.id)]) gw.rt.meter.record(e);
    await gw.rt.meter.flush();
    const pending = [
      usageEvent(a.id, { route: "/v1/llm/chat", area: "llm" }),
      usageEvent(b.id, { route: "/v1/llm/chat" }),
    ];

    const rows = await readUsage(gw.rt.db, { keyIds: [a.id], from: "2026-03-15", pending });
    expect(rows.map((r) => [r.keyId, r.day, r.area, r.route, r.requests])).toEqual([
      [a.id, "2026-03-15", "data", "/v1/data/:source", 1],
      [a.id, "2026-03-15", "llm", "/v1/llm/chat", 1],
    ]);
    expect(sumUsage(await readUsage(gw.rt.db, { keyIds: [a.id, b.id], from: "2026-03-14" })).requests).toBe(3);
    expect(await readUsage(gw.rt.db, { keyIds: [], from: "2026-03-01", pending })).toEqual([]);
  });

  // Routes that came after the migration: no row can predate it, so the backfill need not know them
  // (MCP is served under the tools scope, a path the backfill would have called "mcp"; Anthropic's
  // Messages and the Responses API under the llm scope, paths it would have called "messages"/"responses").
  const ADDED_AFTER_0005 = new Set([
    "/v1/mcp",
    "/v1/messages",
    "/v1/responses",
    "/v1/responses/{response_id}",
    "/v1/provider-keys",
    "/v1/provider-keys/{provider}",
    "/v1/cache",
    "/v1/admin/keys",
    "/v1/admin/keys/{id}",
    "/v1/admin/keys/{id}/rotate",
    "/v1/admin/usage",
  ]);

  it("migrates rows written before 0005_usage_area to the area their route was shown under, which is the area the guard records", async () => {
    // What each keyed route is recorded under now, from the OpenAPI document of the whole app.
    const doc = (await (await gw.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { "x-gateway-auth"?: string; "x-gateway-area"?: string }>>;
    };
    const recorded = new Map<string, string>();
    for (const [path, operations] of Object.entries(doc.paths))
      for (const op of Object.values(operations))
        if (op["x-gateway-auth"] && op["x-gateway-auth"] !== "none" && !ADDED_AFTER_0005.has(path))
          recorded.set(path.replace(/\{(\w+)\}/g, ":$1"), op["x-gateway-area"]!);
    expect(recorded.get("/v1/generators/:generator/random")).toBe("create");
    expect(recorded.size).toBeGreaterThan(50);

    // The routes the dashboard used to map by their path, with the area it showed (/v1/generators corrected).
    const before: Record<string, string> = {
      "/v1/llm/chat": "llm",
      "/v1/data/:source": "data",
      "/v1": "status",
      "/v1/key": "account",
      "/v1/usage": "account",
      "/v1/capabilities": "status",
      // The OpenAI-compatible surface belongs to the language models.
      "/v1/chat/completions": "llm",
      "/v1/embeddings": "llm",
      "/v1/models": "llm",
      "/v1/llm/batch#item": "llm",
      "/v1/generators": "create",
      "/v1/generators/:generator/multiple/:count": "create",
      "/v1/etymology/word/:lang/:word": "etymology",
    };
    const routes = [...new Set([...Object.keys(before), ...recorded.keys()])];

    const env = await backendEnv(db, "memory", { empty: true });
    const database = await openDatabase(loadConfig(env.env));
    try {
      const migrations = readMigrations();
      const at = migrations.findIndex((m) => m.name === "0005_usage_area");
      expect(at).toBeGreaterThan(0);
      await applyMigrations(database, migrations.slice(0, at));
      await database.withSession(async (s) => {
        await s.query(
          `INSERT INTO usage_events (key_id, request_id, method, route, status, latency_ms, bytes_in, bytes_out, created_at)
           SELECT 'key_old', 'r', 'GET', route, 200, 1, 0, 0, now() FROM unnest($1::text[]) AS route`,
          [routes],
        );
        await s.query(
          `INSERT INTO usage_daily (key_id, day, route, requests) SELECT 'key_old', current_date, route, 1 FROM unnest($1::text[]) AS route`,
          [routes],
        );
      });
      expect(await applyMigrations(database, migrations)).toEqual(migrations.slice(at).map((m) => m.name));

      const events = await database.prisma.usageEvent.findMany({ where: { keyId: "key_old" } });
      const daily = await database.prisma.usageDaily.findMany({ where: { keyId: "key_old" } });
      for (const rows of [events, daily]) {
        const areas = Object.fromEntries(rows.map((r) => [r.route, r.area]));
        expect(areas).toMatchObject(before);
        // Old rows of every keyed route land in the area new rows are recorded under.
        expect(areas).toMatchObject(Object.fromEntries(recorded));
      }
    } finally {
      await database.close();
      await env.cleanup();
    }
  }, 120_000);
});
