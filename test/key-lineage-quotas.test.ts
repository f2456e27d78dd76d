import { describe, expect, it } from "vitest";
import { createKey } from "../lib/gateway/keys/key-changes.ts";
import { rotateKey } from "../lib/gateway/keys/key-rotation.ts";
import { operatorApp } from "../lib/gateway/keys/operator.ts";
import { setBudget } from "../lib/portal/usage/budgets.ts";
import { publishKeyChange } from "../lib/portal/keys/publish-change.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { databaseBackends } from "./support/backends.ts";
import { useGateway } from "./support/use-gateway.ts";

/**
 * The attack: rotate a key, then rotate its replacement, each at once and each with a grace period, and
 * use every key of the lineage as if it had its own quotas (batch items per day, budgets, the owner's
 * MAX_KEYS_PER_USER); or send many batches at once so each passes the daily check before any is written.
 */
describe.each(databaseBackends)(
  "quotas follow a key's rotation lineage, and parallel batches cannot pass the daily cap together (%s)",
  (db) => {
    let xai: FakeLlm;
    const t = useGateway({
      db,
      fakes: async () => [(xai = await startFakeOpenAICompatible({ key: "k", reply: "Answer." }))],
      env: () => ({ XAI_API_KEY: "k", UPSTREAM_XAI_URL: xai.url, MISTRAL_API_KEY: undefined }),
      config: { BATCH_ITEMS_PER_DAY: "25", MAX_KEYS_PER_USER: "2", JOBS_QUEUED_PER_KEY: "100" },
    });
    const call = (path: string, apiKey: string, init: RequestInit = {}) =>
      t.gw.request(path, { ...init, headers: { "content-type": "application/json", "X-API-Key": apiKey } });
    const batch = (apiKey: string, items: number) =>
      call("/v1/llm/batch", apiKey, {
        method: "POST",
        body: JSON.stringify({
          requests: Array.from({ length: items }, (_, i) => ({
            custom_id: `q${i}`,
            messages: [{ role: "user", content: `question ${i}` }],
          })),
        }),
      });
    /** A key of its own with an owner, and its secret. */
    async function ownedKey(email: string) {
      const created = await createKey(t.gw.rt.db, { name: "rotating", email, minute: 1000 }, "test");
      return { id: created.id, secret: created.key, owner: created.record.userId! };
    }
    /** Rotates as the portal does: the key cache and the budgets learn of it at once. */
    async function rotate(id: string, owner: string) {
      const rotated = (await rotateKey(t.gw.rt.db, id, { graceHours: 24 }, "test", owner, t.gw.rt.config))!;
      await publishKeyChange(t.gw.rt, rotated.record, rotated.old, ...rotated.ended);
      await t.gw.rt.budgets.refresh();
      return rotated;
    }

    it("gives the keys of a lineage one day of batch items, and keeps one key of it in its grace period", async () => {
      const first = await ownedKey("lineage@example.test");
      expect((await batch(first.secret, 10)).status).toBe(201);
      const second = await rotate(first.id, first.owner);
      expect((await batch(second.key, 10)).status).toBe(201);
      // The first key, still in its grace period, draws on the same 25 items.
      const refused = await batch(first.secret, 6);
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.message).toMatch(/5 left today and this batch has 6/);

      // Rotated again at once: the first key's grace ends now, so the lineage has two working keys, not three.
      const third = await rotate(second.id, first.owner);
      expect(third.ended.map((k) => k.id)).toEqual([first.id]);
      expect((await call("/v1/key", first.secret)).status).toBe(401);
      expect((await batch(third.key, 6)).status).toBe(429);
      expect((await batch(second.key, 5)).status).toBe(201);
      expect((await batch(third.key, 1)).status).toBe(429);
      await t.gw.rt.runner.drained();
    });

    it("counts a key in its grace period towards MAX_KEYS_PER_USER on the operator endpoint", async () => {
      const owner = await ownedKey("capped@example.test");
      await rotate(owner.id, owner.owner);
      // The old key still works, so with its replacement the owner holds 2 of 2.
      const operator = operatorApp(t.gw.rt, "t0ken");
      const created = await operator.request("/keys", {
        method: "POST",
        headers: { authorization: "Bearer t0ken", "content-type": "application/json" },
        body: JSON.stringify({ name: "one more", email: "capped@example.test" }),
      });
      expect(created.status).toBe(409);
      expect((await created.json()).error).toMatch(/already has 2 active keys.*grace period included/);
    });

    it("spends the old key's and its replacement's requests from one budget", async () => {
      const key = await ownedKey("budget@example.test");
      await setBudget(t.gw.rt.db, t.gw.rt.budgets, key.owner, "budget@example.test", {
        keyId: key.id,
        metric: "requests",
        limit: 4,
        hardStop: true,
      });
      await t.gw.rt.budgets.refresh();
      for (let i = 0; i < 2; i++) expect((await call("/v1/models", key.secret)).status).toBe(200);
      const rotated = await rotate(key.id, key.owner);
      for (let i = 0; i < 2; i++) expect((await call("/v1/models", rotated.key)).status).toBe(200);
      // 4 of 4 used across the two keys: both are refused, and the rollups read back agree.
      expect((await call("/v1/models", rotated.key)).status).toBe(429);
      expect((await call("/v1/models", key.secret)).status).toBe(429);
      await t.gw.rt.meter.flush();
      await t.gw.rt.budgets.refresh();
      expect(t.gw.rt.budgets.status(rotated.id)).toMatchObject({ used: 4, budget: { limit: 4 } });
      expect((await call("/v1/models", rotated.key)).status).toBe(429);
    });

    it("accepts only the parallel batches that fit in the day's items, 429 for the rest", async () => {
      const { key } = await t.gw.key({ name: "parallel", minute: 1000, concurrency: 20 });
      const answers = await Promise.all(Array.from({ length: 10 }, () => batch(key, 10)));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, ...Array<number>(8).fill(429)]);
      await t.gw.rt.runner.drained();
    });
  },
);
