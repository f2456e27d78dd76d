import { describe, expect, it } from "vitest";
import { createKey } from "../lib/gateway/keys/key-changes.ts";
import { rotateKey } from "../lib/gateway/keys/key-rotation.ts";
import { setBudget } from "../lib/portal/usage/budgets.ts";
import { usageReport } from "../lib/portal/usage/report.ts";
import { estimateCost, resetPrice, savePrice } from "../lib/usage/prices.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestSmtp, type TestSmtp } from "./support/mail.ts";
import { xaiAndMailEnv } from "./support/provider-env.ts";
import { useGateway } from "./support/use-gateway.ts";

const hello = [{ role: "user", content: "What is the answer?" }];

describe("monthly budgets and the usage you can trust, against a fake provider and a loopback SMTP server", () => {
  let xai: FakeLlm;
  let smtp: TestSmtp;
  const t = useGateway({
    fakes: async () => {
      [xai, smtp] = await Promise.all([
        startFakeOpenAICompatible({
          key: "xai-test",
          reply: "Forty two.",
          usage: { prompt_tokens: 1000, completion_tokens: 500 },
        }),
        startTestSmtp(),
      ]);
      return [xai, smtp];
    },
    env: () => xaiAndMailEnv({ url: xai.url, key: "xai-test" }, smtp.url),
    config: { BUDGET_MAX_REQUESTS: "1000", BUDGET_MAX_COST_USD: "5" },
  });

  /** A key of its own with an owner's address, and its secret. */
  async function ownedKey(email: string) {
    const created = await createKey(t.gw.rt.db, { name: "budgeted", email, minute: 1000 }, "test");
    const key = await t.gw.rt.db.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    return { id: created.id, secret: created.key, owner: key.userId! };
  }
  const call = (secret: string, path = "/v1/llm/models") => t.gw.request(path, { headers: { "X-API-Key": secret } });
  const chat = (secret: string) =>
    t.gw.request("/v1/llm/chat", {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": secret },
      body: JSON.stringify({ messages: hello }),
    });

  it("mails the owner at 80 % and at 100 %, once each, and refuses past it with a 429 in Form B naming the budget", async () => {
    const k = await ownedKey("alice@example.test");
    await setBudget(t.gw.rt.db, t.gw.rt.budgets, k.owner, "alice@example.test", {
      keyId: k.id,
      metric: "requests",
      limit: 5,
      hardStop: true,
    });
    await t.gw.rt.budgets.refresh();
    const since = smtp.mails.length;
    for (let i = 0; i < 4; i++) expect((await call(k.secret)).status).toBe(200);
    const eighty = await smtp.waitFor("alice@example.test", /used 80% of its monthly budget/, { since });
    expect(eighty.text).toMatch(/4 of 5 requests/);
    expect((await call(k.secret)).status).toBe(200);
    const hundred = await smtp.waitFor("alice@example.test", /used all of its monthly budget/, { since });
    expect(hundred.text).toMatch(/5 of 5 requests/);
    expect(hundred.text).toMatch(/refused \(429\)/);

    // The owner's own account endpoints stay open, so they can see why they are refused.
    for (const path of ["/v1/usage", "/v1/key"]) expect((await call(k.secret, path)).status, path).toBe(200);
    const own = await call(k.secret, "/v1/usage");
    expect((await own.json()).budget).toMatchObject({ metric: "requests", monthly_limit: 5, hard_stop: true });

    const refused = await call(k.secret);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; message: string; retry_after: number } };
    expect(body.error.code).toBe("rate_limit_exceeded");
    expect(body.error.message).toMatch(
      /^monthly budget exceeded: this key.s budget of 5 requests for \d{4}-\d{2} \(UTC\) is used up/,
    );
    const nextMonth = new Date();
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1, 1);
    nextMonth.setUTCHours(0, 0, 0, 0);
    expect(body.error.retry_after).toBe(Math.ceil((nextMonth.getTime() - Date.now()) / 1000));
    expect(Number(refused.headers.get("retry-after"))).toBe(body.error.retry_after);
    expect(refused.headers.get("x-ratelimit-reset")).toBe(String(nextMonth.getTime() / 1000));

    // Refused requests do not count; a reload from the rollups agrees with what memory counted, and sends nothing again.
    await call(k.secret);
    await t.gw.rt.meter.flush();
    await t.gw.rt.budgets.refresh();
    expect(t.gw.rt.budgets.status(k.id)?.used).toBe(8);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.slice(since).filter((m) => m.to.includes("alice@example.test"))).toHaveLength(2);
    expect(await t.gw.rt.db.prisma.budgetAlert.count({ where: { keyId: k.id } })).toBe(2);

    // Raising the budget lets the key through at once.
    await setBudget(t.gw.rt.db, t.gw.rt.budgets, k.owner, "alice@example.test", {
      keyId: k.id,
      metric: "requests",
      limit: 10,
      hardStop: true,
    });
    expect((await call(k.secret)).status).toBe(200);
    const again = await call(k.secret, "/v1/usage");
    expect(again.status).toBe(200);
    expect((await again.json()).budget).toMatchObject({ metric: "requests", monthly_limit: 10, hard_stop: true });

    // A rotation's replacement keeps the budget.
    const rotated = await rotateKey(t.gw.rt.db, k.id, {}, "alice@example.test", k.owner);
    await t.gw.rt.budgets.refresh();
    const replaced = await call(rotated!.key, "/v1/usage");
    expect((await replaced.json()).budget).toMatchObject({ metric: "requests", monthly_limit: 10, hard_stop: true });
  });

  it("counts tokens and estimated cost from the price table, and an alerts-only budget never refuses", async () => {
    const k = await ownedKey("bob@example.test");
    await setBudget(t.gw.rt.db, t.gw.rt.budgets, k.owner, "bob@example.test", {
      keyId: k.id,
      metric: "cost",
      limit: 0.001,
      hardStop: false,
    });
    await t.gw.rt.budgets.refresh();
    // Each call: 1,000 prompt and 500 completion tokens of grok-4-fast-*, priced as grok-4-fast.
    const perCall = estimateCost("xai", "grok-4-fast-2026", 1000, 500)!;
    expect(perCall).toBeCloseTo((1000 * 0.2 + 500 * 0.5) / 1e6, 12);
    for (let i = 0; i < 3; i++) expect((await chat(k.secret)).status).toBe(200);
    expect(t.gw.rt.budgets.status(k.id)?.used).toBeCloseTo(3 * perCall, 12);
    await smtp.waitFor("bob@example.test", /used all of its monthly budget/);
    expect((await chat(k.secret)).status).toBe(200);

    // The operator's price applies to what is read next: the dashboard's estimate and the budget.
    await savePrice(t.gw.rt.db, { provider: "xai", model: "grok-4-fast", input: 10, output: 20 }, "operator");
    try {
      await t.gw.rt.meter.flush();
      await t.gw.rt.budgets.refresh();
      expect(t.gw.rt.budgets.status(k.id)?.used).toBeCloseTo((4 * (1000 * 10 + 500 * 20)) / 1e6, 12);
      const report = await usageReport(t.gw.rt.db, { keyId: k.id });
      expect(report.models).toEqual([
        {
          provider: "xai",
          model: "grok-4-fast-2026",
          requests: 4,
          prompt_tokens: 4000,
          completion_tokens: 2000,
          cost_usd: expect.closeTo(0.08, 12),
        },
      ]);
    } finally {
      await resetPrice(t.gw.rt.db, "xai", "grok-4-fast");
    }
  });

  it("reports usage whose breakdowns by endpoint and by model add up to the totals", async () => {
    const k = await ownedKey("carol@example.test");
    expect((await chat(k.secret)).status).toBe(200);
    expect((await chat(k.secret)).status).toBe(200);
    expect((await call(k.secret)).status).toBe(200);
    expect((await call(k.secret, "/v1/llm/models?provider=nope")).status).toBeGreaterThanOrEqual(200);
    await t.gw.rt.meter.flush();
    const report = await usageReport(t.gw.rt.db, { keyId: k.id });
    const sum = (rows: Array<Record<string, unknown>>, field: string) =>
      rows.reduce((a, r) => a + (r[field] as number), 0);
    expect(report.totals.requests).toBe(4);
    for (const field of ["requests", "ok", "client", "server", "limited", "tokens"])
      expect(sum(report.routes, field), field).toBe(report.totals[field as keyof typeof report.totals]);
    expect(report.totals.ok + report.totals.client + report.totals.server + report.totals.limited).toBe(4);
    for (const field of ["requests", "prompt_tokens", "completion_tokens"])
      expect(sum(report.models, field), field).toBe(report.models_total[field as keyof typeof report.models_total]);
    expect(report.models_total.requests).toBe(2);
    expect(report.models_total.cost_usd).toBeCloseTo(sum(report.models, "cost_usd"), 12);
    expect(report.models_total.prompt_tokens + report.models_total.completion_tokens).toBe(report.totals.tokens);
    expect(sum(report.daily, "requests")).toBe(report.totals.requests);
  });

  it("takes in what another instance served on its next refresh, and stops the key then", async () => {
    const k = await ownedKey("frank@example.test");
    await setBudget(t.gw.rt.db, t.gw.rt.budgets, k.owner, "frank@example.test", {
      keyId: k.id,
      metric: "tokens",
      limit: 10_000,
      hardStop: true,
    });
    await t.gw.rt.budgets.refresh();
    expect((await call(k.secret)).status).toBe(200);
    // Another instance's meter wrote 12,000 tokens for this key today; this one has not seen them.
    const since = smtp.mails.length;
    await t.gw.rt.db.prisma.usageDaily.create({
      data: {
        keyId: k.id,
        day: new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`),
        route: "/v1/other",
        area: "llm",
        requests: 8,
        tokens: 12_000,
      },
    });
    expect((await call(k.secret)).status).toBe(200);
    await t.gw.rt.budgets.refresh();
    expect(t.gw.rt.budgets.status(k.id)?.used).toBe(12_000);
    const refused = await call(k.secret);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toMatch(/budget of 10,000 tokens/);
    await smtp.waitFor("frank@example.test", /used all of its monthly budget/, { since });
  });

  it("refuses a budget over the operator's ceiling or on someone else's key", async () => {
    const { budgetInput } = await import("../lib/portal/usage/budgets.ts");
    const input = budgetInput(t.gw.rt.config.budgets.ceilings);
    expect(input.safeParse({ keyId: "key_1", metric: "requests", limit: "1001" }).error?.issues[0]?.message).toMatch(
      /at most 1,000 requests a month/,
    );
    expect(input.safeParse({ keyId: "key_1", metric: "cost", limit: "5.01" }).success).toBe(false);
    expect(input.safeParse({ keyId: "key_1", metric: "tokens", limit: "1.5" }).success).toBe(false);
    expect(input.safeParse({ keyId: "key_1", metric: "cost", limit: "0.5", hardStop: "on" }).data).toMatchObject({
      hardStop: true,
    });
    const mine = await ownedKey("dave@example.test");
    const theirs = await ownedKey("erin@example.test");
    await expect(
      setBudget(t.gw.rt.db, t.gw.rt.budgets, mine.owner, "dave@example.test", {
        keyId: theirs.id,
        metric: "requests",
        limit: 1,
        hardStop: true,
      }),
    ).rejects.toThrow(/no such key among your active keys/);
    expect((await call(theirs.secret)).status).toBe(200);
  });
});
