import { describe, expect, it } from "vitest";
import { revokeKey } from "../lib/gateway/keys/key-changes.ts";
import { decideKeyRequest, pickUpKey, requestKey } from "../lib/gateway/keys/key-requests.ts";
import { startOperatorServer } from "../lib/gateway/keys/operator.ts";
import { setBudget } from "../lib/portal/usage/budgets.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { runKeysCli } from "./support/server-process.ts";
import { createTestSession, type TestSession } from "./support/session.ts";
import { useGateway } from "./support/use-gateway.ts";

/** What the consoles send: the session cookie, same-origin, no key. */
const asConsole = (s: TestSession) => ({ Cookie: s.cookie, "Sec-Fetch-Site": "same-origin" });

const chat = (gw: TestGateway, s: TestSession) =>
  gw.request("/v1/llm/chat", {
    method: "POST",
    headers: { ...asConsole(s), "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "Hello?" }] }),
  });

/** CONSOLE_KEY_SCOPES's default: the areas a granted console gets as its own. */
const CONSOLE_AREAS = ["aac", "datavis", "generate", "llm", "orchestrate", "trove"];

const REQUEST = {
  name: "Research key",
  intendedUse: "Summaries of papers for my thesis.",
  useType: "research",
} as const;

// Sessions are re-read from the database after the bridge's 10 s; forgetting one stands in for that wait.
const reread = (gw: TestGateway, s: TestSession) => gw.rt.sessions.forget(s.token);

describe("model consoles under KEY_APPROVAL=manual: a sign-in alone spends no model tokens", () => {
  let xai: FakeLlm;
  const t = useGateway({
    fakes: async () => [(xai = await startFakeOpenAICompatible({ key: "xai-test", reply: "Hi." }))],
    env: () => ({ XAI_API_KEY: "xai-test", UPSTREAM_XAI_URL: xai.url }),
  });

  it("refuses a fresh account's console call to a model area with 403 saying why, and serves the others", async () => {
    const s = await createTestSession(t.gw.rt.db);
    const res = await chat(t.gw, s);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toMatch(/^model consoles open once your key request is approved: 'llm'/);
    for (const path of ["/v1/generate/story", "/v1/orchestrate/dream-cascade"]) {
      const refused = await t.gw.request(path, { method: "POST", headers: asConsole(s), body: "{}" });
      expect(refused.status, path).toBe(403);
      expect((await refused.json()).error, path).toMatch(/model consoles open once/);
    }
    expect(xai.requests).toHaveLength(0);
    // The areas that call no model stay open, and a key sent with the request is not the console's.
    expect((await t.gw.request("/v1/datavis/list", { headers: asConsole(s) })).status).toBe(200);
    expect((await t.post("/v1/llm/chat", { messages: [{ role: "user", content: "Hi" }] })).status).toBe(200);
  });

  it("opens them once the operator approves the account's key request, and closes them when its key is revoked", async () => {
    const s = await createTestSession(t.gw.rt.db);
    const request = await requestKey(t.gw.rt.db, s.userId, REQUEST, { mode: "manual" });
    expect((await chat(t.gw, s)).status).toBe(403);

    await decideKeyRequest(t.gw.rt.db, request.id, { approve: true }, "ops@example.test");
    reread(t.gw, s);
    const res = await chat(t.gw, s);
    expect(res.status).toBe(200);
    expect((await res.json()).content).toBe("Hi.");

    const key = await pickUpKey(t.gw.rt.db, request.id, s.userId);
    reread(t.gw, s);
    expect((await chat(t.gw, s)).status).toBe(200);
    await revokeKey(t.gw.rt.db, key!.id, "ops@example.test");
    reread(t.gw, s);
    expect((await chat(t.gw, s)).status).toBe(403);
  });

  it("opens them when the operator grants the account its consoles (npm run keys -- grant-console), before any key", async () => {
    const s = await createTestSession(t.gw.rt.db, `granted-${Date.now()}@example.test`);
    expect((await chat(t.gw, s)).status).toBe(403);
    // The CLI reaches this gateway (it owns the database) through its loopback operator endpoint.
    const operator = await startOperatorServer(t.gw.rt);
    try {
      const unknown = await runKeysCli(["grant-console", "nobody@example.test"], t.gw.env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/no account has the address nobody@example.test/);
      const granted = await runKeysCli(["grant-console", s.email.toUpperCase()], t.gw.env);
      expect(granted.code, granted.stderr).toBe(0);
      expect(granted.lines).toEqual([{ id: expect.any(String), email: s.email.toUpperCase(), scopes: CONSOLE_AREAS }]);
    } finally {
      await operator.close();
    }
    reread(t.gw, s);
    expect((await chat(t.gw, s)).status).toBe(200);
  });

  it("holds the console to the account's strictest budget, so console calls cannot go around it", async () => {
    const s = await createTestSession(t.gw.rt.db);
    const { id: keyId } = await t.gw.key({ name: "budgeted", email: s.email });
    await setBudget(t.gw.rt.db, t.gw.rt.budgets, s.userId, "test", {
      keyId,
      metric: "requests",
      limit: 2,
      hardStop: true,
    });
    const list = () => t.gw.request("/v1/datavis/list", { headers: asConsole(s) });
    expect((await list()).status).toBe(200);
    expect((await list()).status).toBe(200);
    const refused = await list();
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatchObject({
      code: "rate_limit_exceeded",
      message: expect.stringMatching(/monthly budget exceeded/),
    });
  });
});

describe("model consoles where the policy approves at once", () => {
  it("opens them at once under KEY_APPROVAL=auto and for a listed domain, and keeps other domains waiting", async () => {
    const xai = await startFakeOpenAICompatible({ key: "xai-test", reply: "Hi." });
    const saved = { ...process.env };
    Object.assign(process.env, { XAI_API_KEY: "xai-test", UPSTREAM_XAI_URL: xai.url });
    const auto = await startTestGateway({ env: { KEY_APPROVAL: "auto" } });
    const domains = await startTestGateway({
      env: { KEY_APPROVAL: "domains", KEY_APPROVAL_DOMAINS: "trusted.test" },
    });
    try {
      expect((await chat(auto, await createTestSession(auto.rt.db))).status).toBe(200);
      expect((await chat(domains, await createTestSession(domains.rt.db, "ada@trusted.test"))).status).toBe(200);
      const elsewhere = await chat(domains, await createTestSession(domains.rt.db, "ada@sub.trusted.test"));
      expect(elsewhere.status).toBe(403);
    } finally {
      process.env = saved;
      await Promise.all([auto.close(), domains.close()]);
      await xai.close();
    }
  });
});
