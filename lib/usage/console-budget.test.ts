import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { createTestSession } from "../../test/support/session.ts";
import { consoleKeyFor } from "../gateway/keys/console-key.ts";
import { createKey, revokeKey } from "../gateway/keys/key-changes.ts";
import type { Budget } from "./budgets.ts";
import { consoleBudget, syncConsoleBudget } from "./console-budget.ts";

const budget = (metric: Budget["metric"], limit: number, hardStop = true): Budget => ({ metric, limit, hardStop });

describe("consoleBudget", () => {
  it("takes the strictest: a hard stop first, then cost, tokens, requests, then the smallest limit", () => {
    expect(consoleBudget([])).toBeNull();
    expect(consoleBudget([budget("requests", 10, false), budget("requests", 500)])).toEqual(budget("requests", 500));
    expect(consoleBudget([budget("requests", 10), budget("cost", 50), budget("tokens", 1000)])).toEqual(
      budget("cost", 50),
    );
    expect(consoleBudget([budget("cost", 50), budget("cost", 5), budget("cost", 20)])).toEqual(budget("cost", 5));
  });
});

describe("syncConsoleBudget", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("gives the console key its user's budget, follows changes, and writes nothing when none", async () => {
    const s = await createTestSession(gw.rt.db);
    const console = await consoleKeyFor(gw.rt.db, s.userId);
    const applied: Array<Budget | null> = [];
    const tracker = { apply: (_id: string, b: Budget | null) => void applied.push(b) };
    const sync = () => syncConsoleBudget(gw.rt.db, tracker, s.userId, console.id);
    const row = () => gw.rt.db.prisma.keyBudget.findUnique({ where: { keyId: console.id } });

    expect(await sync()).toBeNull();
    expect(applied).toEqual([]);

    const a = await createKey(gw.rt.db, { name: "a", email: s.email }, "ops");
    const b = await createKey(gw.rt.db, { name: "b", email: s.email }, "ops");
    await gw.rt.db.prisma.keyBudget.createMany({
      data: [
        { keyId: a.id, metric: "cost", monthlyLimit: 20, hardStop: true },
        { keyId: b.id, metric: "cost", monthlyLimit: 5, hardStop: true },
      ],
    });
    expect(await sync()).toEqual(budget("cost", 5));
    expect(await row()).toMatchObject({ metric: "cost", monthlyLimit: 5, hardStop: true });
    expect(await sync()).toEqual(budget("cost", 5));
    expect(applied).toEqual([budget("cost", 5)]);

    // A revoked key's budget no longer binds the console; with none left, the console's goes too.
    await revokeKey(gw.rt.db, b.id, "ops");
    expect(await sync()).toEqual(budget("cost", 20));
    await revokeKey(gw.rt.db, a.id, "ops");
    expect(await sync()).toBeNull();
    expect(await row()).toBeNull();
    expect(applied).toEqual([budget("cost", 5), budget("cost", 20), null]);
  });
});
