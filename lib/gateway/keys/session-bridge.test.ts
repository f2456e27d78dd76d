import { listen, type Listening } from "../../../test/support/listen.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { addProbeRoutes } from "../../../test/support/probe-routes.ts";
import { revokeKey, setKeyLimits } from "./key-changes.ts";

const SAME_ORIGIN = { "Sec-Fetch-Site": "same-origin" };

describe.each(databaseBackends)("the portal session on /v1 (%s)", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db });
    addProbeRoutes(gw.app);
  });
  afterAll(async () => {
    await gw?.close();
  });

  const call = (path: string, headers: Record<string, string>) => gw.request(path, { headers });

  it("serves a same-origin request with the session cookie as the user's console key, with less than an approved key", async () => {
    const s = await createTestSession(gw.rt.db);
    const res = await call("/v1/key", { Cookie: s.cookie, ...SAME_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    const body = await res.json();
    const row = await gw.rt.db.prisma.apiKey.findUniqueOrThrow({ where: { id: body.id } });
    expect(row).toMatchObject({ userId: s.userId, kind: "console", status: "active", scopes: [] });
    // A new mailbox buys the console allowance, not an approved key's 10,000 requests a day on every area.
    expect(body.limits).toEqual({ day: 1000, minute: 60, concurrency: 4 });
    expect(body.scopes).toEqual(["aac", "datavis", "generate", "llm", "orchestrate", "trove"]);
    expect(body.remaining.day.remaining).toBe(999);
    const outside = await call("/v1/probe/slow?ms=0", { Cookie: s.cookie, ...SAME_ORIGIN });
    expect(outside.status).toBe(403);
    expect((await outside.json()).error).toMatch(/no access to 'utils'/);
  });

  it("takes the console areas and limits from CONSOLE_KEY_SCOPES and CONSOLE_LIMIT_*, and an operator's per-key limits over them", async () => {
    const custom = await startTestGateway({
      db,
      env: {
        // utils calls a model (summarize), which KEY_APPROVAL=manual keeps from unapproved consoles.
        KEY_APPROVAL: "auto",
        CONSOLE_KEY_SCOPES: "utils",
        CONSOLE_LIMIT_DAY: "3",
        CONSOLE_LIMIT_MINUTE: "50",
        CONSOLE_LIMIT_CONCURRENCY: "1",
      },
    });
    try {
      addProbeRoutes(custom.app);
      const s = await createTestSession(custom.rt.db);
      const cookie = { Cookie: s.cookie, ...SAME_ORIGIN };
      const first = await custom.request("/v1/probe/slow?ms=0", { headers: cookie });
      expect(first.status).toBe(200);
      expect(first.headers.get("x-ratelimit-limit")).toBe("3");
      expect((await custom.request("/v1/probe/echo", { method: "POST", headers: cookie, body: "{}" })).status).toBe(
        403,
      );
      const info = await (await custom.request("/v1/key", { headers: cookie })).json();
      expect(info.limits).toEqual({ day: 3, minute: 50, concurrency: 1 });
      expect((await custom.request("/v1/key", { headers: cookie })).status).toBe(200);
      expect((await custom.request("/v1/key", { headers: cookie })).status).toBe(429);
      custom.rt.keys.remember(
        (await setKeyLimits(custom.rt.db, info.id, { day: 1000, minute: null, concurrency: null }, "operator"))!,
      );
      const lifted = await custom.request("/v1/key", { headers: cookie });
      expect(lifted.status).toBe(200);
      expect((await lifted.json()).limits).toEqual({ day: 1000, minute: 50, concurrency: 1 });
    } finally {
      await custom.close();
    }
  });

  it("resolves the session from memory after the first request", async () => {
    const s = await createTestSession(gw.rt.db);
    const first = await (await call("/v1/key", { Cookie: s.cookie, ...SAME_ORIGIN })).json();
    // With the rows gone, only the in-memory session and key can still answer.
    await gw.rt.db.prisma.session.deleteMany({ where: { sessionToken: s.token } });
    const second = await call("/v1/key", { Cookie: s.cookie, ...SAME_ORIGIN });
    expect(second.status).toBe(200);
    expect((await second.json()).id).toBe(first.id);
    gw.rt.sessions.forget(s.token);
    expect((await call("/v1/key", { Cookie: s.cookie, ...SAME_ORIGIN })).status).toBe(401);
  });

  it("meters session calls against the console key", async () => {
    const s = await createTestSession(gw.rt.db);
    const { id } = await (await call("/v1/key", { Cookie: s.cookie, ...SAME_ORIGIN })).json();
    await call("/v1/key", { Cookie: s.cookie, ...SAME_ORIGIN });
    await gw.rt.meter.flush();
    const rows = await gw.rt.db.prisma.usageDaily.findMany({ where: { keyId: id } });
    expect(rows.reduce((n, r) => n + r.requests, 0)).toBe(2);
  });

  it("refuses the cookie on cross-site and unmarked requests, and accepts a matching Origin", async () => {
    const s = await createTestSession(gw.rt.db);
    const cases: Array<Record<string, string>> = [
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
      // Typed into the address bar: not a console call.
      { "Sec-Fetch-Site": "none" },
      // A matching Origin does not override a browser's own cross-site verdict.
      { "Sec-Fetch-Site": "cross-site", Origin: gw.url },
      { Origin: "https://evil.example" },
      {},
    ];
    for (const headers of cases) {
      const res = await call("/v1/key", { Cookie: s.cookie, ...headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect((await res.json()).error).toMatch(/same-origin/);
    }
    expect((await call("/v1/key", { Cookie: s.cookie, Origin: gw.url })).status).toBe(200);
  });

  it("refuses expired and unknown sessions, and serves optional routes without one", async () => {
    const expired = await createTestSession(gw.rt.db, undefined, -1000);
    expect((await call("/v1/key", { Cookie: expired.cookie, ...SAME_ORIGIN })).status).toBe(401);
    expect((await call("/v1/key", { Cookie: "next-auth.session-token=nope", ...SAME_ORIGIN })).status).toBe(401);
    const open = await call("/v1/probe/optional", { Cookie: "next-auth.session-token=nope", ...SAME_ORIGIN });
    expect(await open.json()).toEqual({ keyed: false });
    const s = await createTestSession(gw.rt.db);
    // The session is used, as the console key, whose areas do not include clinical.
    const keyed = await call("/v1/probe/optional", { Cookie: s.cookie, ...SAME_ORIGIN });
    expect(keyed.status).toBe(403);
  });

  it("creates one console key when a user's first requests arrive together", async () => {
    const s = await createTestSession(gw.rt.db);
    const other = await createTestSession(gw.rt.db, s.email);
    const ids = await Promise.all(
      [s, other, s, other].map(
        async (x) => (await (await call("/v1/key", { Cookie: x.cookie, ...SAME_ORIGIN })).json()).id,
      ),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await gw.rt.db.prisma.apiKey.count({ where: { userId: s.userId, kind: "console" } })).toBe(1);
  });

  it("lets a sent API key win over the session, and stops a revoked console key", async () => {
    const s = await createTestSession(gw.rt.db);
    const { id: keyId, key } = await gw.key();
    const res = await call("/v1/key", { Cookie: s.cookie, ...SAME_ORIGIN, "X-API-Key": key });
    expect((await res.json()).id).toBe(keyId);
    const { id: consoleId } = await (await call("/v1/key", { Cookie: s.cookie, ...SAME_ORIGIN })).json();
    gw.rt.keys.remember((await revokeKey(gw.rt.db, consoleId, "test"))!);
    const refused = await call("/v1/key", { Cookie: s.cookie, ...SAME_ORIGIN });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toMatch(/console access .* revoked/);
  });

  describe("over a real socket", () => {
    let server: Listening;
    let url: string;
    beforeAll(async () => {
      server = await listen(gw.app.fetch);
      url = server.url;
    });
    afterAll(() => server?.close());

    it("accepts the cookie from the same origin and refuses it from another", async () => {
      const s = await createTestSession(gw.rt.db);
      const ok = await fetch(`${url}/v1/key`, { headers: { Cookie: s.cookie, Origin: url } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("x-ratelimit-remaining")).toBe("59");
      const cross = await fetch(`${url}/v1/key`, { headers: { Cookie: s.cookie, Origin: "http://127.0.0.2:1" } });
      expect(cross.status).toBe(401);
      expect(cross.headers.get("www-authenticate")).toMatch(/Bearer/);
    });
  });
});
