import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { revokeKey, setKeyScopes } from "./key-changes.ts";
import { rotateKey } from "./key-rotation.ts";
import { KeyRuleError } from "./key-rules.ts";
import { toKeyRecord } from "./record.ts";

describe.each(databaseBackends)("key rotation (%s)", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const user = async () => (await createTestSession(gw.rt.db)).userId;
  const keyInfo = (key: string) => gw.request("/v1/key", { headers: { "X-API-Key": key } });
  /** A key issued by the operator and handed to a portal user. */
  const owned = async (userId: string, input: Parameters<TestGateway["key"]>[0] = {}) => {
    const k = await gw.key(input);
    gw.rt.keys.remember(
      await gw.rt.db.prisma.apiKey.update({ where: { id: k.id }, data: { userId } }).then(toKeyRecord),
    );
    return k;
  };

  it("gives a rotated key no fresh quota: the replacement continues the counters of its lineage", async () => {
    const userId = await user();
    const old = await owned(userId, { name: "metered" });
    for (let i = 0; i < 22; i++) expect((await keyInfo(old.key)).status).toBe(200);
    const rotated = (await rotateKey(gw.rt.db, old.id, { graceHours: 24 }, "me", userId))!;
    gw.rt.keys.remember(rotated.old);
    const fresh = await (await keyInfo(rotated.key)).json();
    expect(fresh.remaining.day.remaining).toBe(10_000 - 23);
    // The minute window slides: on a slow machine the calls may straddle a minute and count a little less.
    // A fresh quota would leave 99; the lineage's counters leave about 77.
    expect(fresh.remaining.minute.remaining).toBeLessThanOrEqual(100 - 23 + 5);
    // The old key, still in its grace period, draws on the same allowance.
    const stale = await (await keyInfo(old.key)).json();
    expect(stale.remaining.day.remaining).toBe(10_000 - 24);
    const again = (await rotateKey(gw.rt.db, rotated.id, { graceHours: 1 }, "me", userId))!;
    expect(again.record.limitKey).toBe(old.id);
  });

  it("shares one concurrency allowance between a key and its replacement", async () => {
    const userId = await user();
    const old = await owned(userId, { concurrency: 1 });
    const rotated = (await rotateKey(gw.rt.db, old.id, { graceHours: 24 }, "me", userId))!;
    gw.rt.keys.remember(rotated.old);
    const admission = await gw.rt.limiter.admit(rotated.record.limitKey, { day: 100, minute: 100, concurrency: 1 });
    try {
      const refused = await keyInfo(old.key);
      expect(refused.status).toBe(429);
      expect((await refused.json()).error.message).toMatch(/concurrent/);
    } finally {
      admission.release();
    }
  });

  it("refuses to rotate a revoked, an expired or an already rotated key; the replacement inherits expiry, scopes and limits", async () => {
    const userId = await user();
    const expiresAt = new Date(Date.now() + 7 * 86_400_000);
    const k = await owned(userId, { name: "expiring", scopes: ["data", "llm"], day: 50, expiresAt });
    await setKeyScopes(gw.rt.db, k.id, { scopes: ["data"] }, "me", userId);
    const rotated = (await rotateKey(gw.rt.db, k.id, { graceHours: 1 }, "me", userId))!;
    expect(rotated.record).toMatchObject({ scopes: ["data"], overrides: { day: 50 }, expiresAt: expiresAt.getTime() });
    // The operator's grant comes along: the owner may widen back to llm, not beyond.
    expect((await setKeyScopes(gw.rt.db, rotated.id, { scopes: ["data", "llm"] }, "me", userId))?.scopes).toEqual([
      "data",
      "llm",
    ]);
    await expect(setKeyScopes(gw.rt.db, rotated.id, { scopes: ["proxy"] }, "me", userId)).rejects.toThrow(KeyRuleError);

    await expect(rotateKey(gw.rt.db, k.id, {}, "me", userId)).rejects.toThrow(/already rotated/);
    const twice = await Promise.allSettled([0, 1].map(() => rotateKey(gw.rt.db, rotated.id, {}, "me", userId)));
    expect(twice.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await gw.rt.db.prisma.apiKey.count({ where: { lineageId: k.id } })).toBe(3);

    const revoked = await owned(userId);
    await revokeKey(gw.rt.db, revoked.id, "me", userId);
    await expect(rotateKey(gw.rt.db, revoked.id, {}, "me", userId)).rejects.toThrow("a revoked key cannot be rotated");
    const expired = await owned(userId, { expiresAt: new Date(Date.now() - 1000) });
    await expect(rotateKey(gw.rt.db, expired.id, {}, "me", userId)).rejects.toThrow("an expired key cannot be rotated");
  });

  it("rotates: the new key works at once, the old one until its grace period ends", async () => {
    const userId = await user();
    const old = await gw.key({ name: "rotating", scopes: ["data"], minute: 7 });
    await gw.rt.db.prisma.apiKey.update({ where: { id: old.id }, data: { userId } });
    expect(await rotateKey(gw.rt.db, old.id, {}, "someone", await user())).toBeNull();
    const rotated = (await rotateKey(gw.rt.db, old.id, { graceHours: 24 }, "me", userId))!;
    expect(rotated.record).toMatchObject({ name: "rotating", scopes: ["data"], userId, overrides: { minute: 7 } });
    expect(rotated.old.expiresAt! - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    gw.rt.keys.remember(rotated.old);
    expect((await keyInfo(rotated.key)).status).toBe(200);
    expect((await keyInfo(old.key)).status).toBe(200);
    // No grace: the old key stops now, through the key cache's record.
    const again = (await rotateKey(gw.rt.db, rotated.id, { graceHours: 0 }, "me", userId))!;
    gw.rt.keys.remember(again.old);
    const refused = await keyInfo(rotated.key);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toBe("API key has been rotated: use its replacement");
    expect((await keyInfo(again.key)).status).toBe(200);
  });
});
