import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { createTestSession } from "../../test/support/session.ts";
import { z } from "zod";
import {
  consoleKeyFor,
  createKey,
  decideKeyRequest,
  listAudit,
  listKeys,
  pickUpKey,
  renameKey,
  requestKey,
  revokeKey,
  rotateKey,
  setKeyLimits,
  setKeyScopes,
} from "./key-admin.ts";

const REQUEST = { name: "Thesis", intendedUse: "Collecting papers for my thesis", useType: "research" as const };

describe.each(databaseBackends)("key administration for the portal (%s)", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const user = async () => (await createTestSession(gw.rt.db)).userId;
  const keyInfo = (key: string) => gw.request("/v1/key", { headers: { "X-API-Key": key } });

  it("takes a request through approval to a key that is created, and shown, once", async () => {
    const userId = await user();
    const request = await requestKey(gw.rt.db, userId, { ...REQUEST, organisation: "" }, false);
    expect(request).toMatchObject({ status: "pending", organisation: null, keyId: null });
    // Not approved yet: nothing to pick up.
    expect(await pickUpKey(gw.rt.db, request.id, userId)).toBeNull();
    const decided = await decideKeyRequest(gw.rt.db, request.id, { approve: true, note: "welcome" }, "op@example.test");
    expect(decided).toMatchObject({ status: "approved", note: "welcome", decidedBy: "op@example.test" });
    expect(await decideKeyRequest(gw.rt.db, request.id, { approve: false }, "op@example.test")).toBeNull();
    // Someone else cannot collect it.
    expect(await pickUpKey(gw.rt.db, request.id, await user())).toBeNull();
    const [a, b] = await Promise.all([pickUpKey(gw.rt.db, request.id, userId), pickUpKey(gw.rt.db, request.id, userId)]);
    const created = (a ?? b)!;
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(created.key).toMatch(/^sk_/);
    expect((await keyInfo(created.key)).status).toBe(200);
    const stored = await gw.rt.db.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(JSON.stringify(stored)).not.toContain(created.key);
    expect((await gw.rt.db.prisma.keyRequest.findUniqueOrThrow({ where: { id: request.id } })).keyId).toBe(created.id);
  });

  it("approves at once with auto-approve, and rejects incomplete requests", async () => {
    const userId = await user();
    const request = await requestKey(gw.rt.db, userId, REQUEST, true);
    expect(request).toMatchObject({ status: "approved", decidedBy: "auto-approve" });
    expect(await pickUpKey(gw.rt.db, request.id, userId)).not.toBeNull();
    await expect(requestKey(gw.rt.db, userId, { ...REQUEST, intendedUse: "x" }, false)).rejects.toThrow();
    await expect(requestKey(gw.rt.db, userId, { ...REQUEST, useType: "military" as never }, false)).rejects.toThrow();
  });

  it("refuses names, uses and notes the database cannot store as validation errors, not database failures", async () => {
    const userId = await user();
    const refused = async (work: Promise<unknown>) => {
      const err = await work.then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(z.ZodError);
      expect((err as z.ZodError).issues[0]?.message).toMatch(/NUL characters or unpaired surrogates/);
    };
    await refused(requestKey(gw.rt.db, userId, { ...REQUEST, name: "Thesis\u0000" }, false));
    await refused(requestKey(gw.rt.db, userId, { ...REQUEST, intendedUse: "Collecting papers \ud800 for my thesis" }, false));
    await refused(createKey(gw.rt.db, { name: "laptop\u0000" }, "operator-cli"));
    const { id } = await gw.key();
    await refused(renameKey(gw.rt.db, id, { name: "x\udc00" }, "test"));
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
    expect((await refused.json()).error).toMatch(/expired/);
    expect((await keyInfo(again.key)).status).toBe(200);
  });

  it("grants the operator scope only through the operator path, and a user's scope edit keeps it", async () => {
    const userId = await user();
    const { id } = await gw.key({ name: "runner admin", scopes: ["ollama:admin"] });
    await gw.rt.db.prisma.apiKey.update({ where: { id }, data: { userId } });
    await expect(setKeyScopes(gw.rt.db, id, { scopes: ["ollama:admin" as never] }, "me", userId)).rejects.toThrow();
    expect((await setKeyScopes(gw.rt.db, id, { scopes: ["llm"] }, "me", userId))?.scopes).toEqual(["llm", "ollama:admin"]);
    expect((await setKeyScopes(gw.rt.db, id, { scopes: [] }, "me", userId))?.scopes).toEqual(["ollama:admin"]);
  });

  it("lets a user rename, scope and revoke only their own client keys", async () => {
    const userId = await user();
    const stranger = await user();
    const { id, key } = await gw.key({ name: "mine" });
    await gw.rt.db.prisma.apiKey.update({ where: { id }, data: { userId } });
    expect(await renameKey(gw.rt.db, id, { name: "x" }, "stranger", stranger)).toBeNull();
    expect((await renameKey(gw.rt.db, id, { name: "  renamed " }, "me", userId))?.name).toBe("renamed");
    expect((await setKeyScopes(gw.rt.db, id, { scopes: ["llm", "data", "llm"] }, "me", userId))?.scopes).toEqual(["data", "llm"]);
    await expect(setKeyScopes(gw.rt.db, id, { scopes: ["nope" as never] }, "me", userId)).rejects.toThrow();
    const consoleKey = await consoleKeyFor(gw.rt.db, userId);
    expect(await revokeKey(gw.rt.db, consoleKey.id, "me", userId)).toBeNull();
    expect(await revokeKey(gw.rt.db, id, "stranger", stranger)).toBeNull();
    gw.rt.keys.remember((await revokeKey(gw.rt.db, id, "me", userId))!);
    expect((await keyInfo(key)).status).toBe(401);
    expect((await listKeys(gw.rt.db, userId)).map((k) => [k.name, k.kind, k.status])).toEqual([
      ["renamed", "client", "revoked"],
      ["Portal consoles", "console", "active"],
    ]);
    const audit = (await listAudit(gw.rt.db, 500)).filter((a) => a.target === id).map((a) => [a.actor, a.action]);
    expect(audit).toEqual([
      ["me", "key.revoke"],
      ["me", "key.scopes"],
      ["me", "key.rename"],
      ["test", "key.create"],
    ]);
  });

  it("lets an operator set a key's limits, enforced at once and audited", async () => {
    const { id, key } = await gw.key({ name: "limited" });
    await expect(setKeyLimits(gw.rt.db, id, { day: null, minute: 0, concurrency: null }, "operator")).rejects.toThrow();
    expect(await setKeyLimits(gw.rt.db, "no-such-key", { day: null, minute: 2, concurrency: null }, "operator")).toBeNull();
    const record = (await setKeyLimits(gw.rt.db, id, { day: null, minute: 2, concurrency: 5 }, "operator"))!;
    gw.rt.keys.remember(record);
    expect((await keyInfo(key)).status).toBe(200);
    expect((await keyInfo(key)).status).toBe(200);
    const refused = await keyInfo(key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("2");
    expect((await listKeys(gw.rt.db)).find((k) => k.id === id)?.limits).toEqual({ day: null, minute: 2, concurrency: 5 });
    const audit = (await listAudit(gw.rt.db, 500)).filter((a) => a.target === id && a.action === "key.limits");
    expect(audit.map((a) => [a.actor, a.detail])).toEqual([["operator", { from: { day: null, minute: null, concurrency: null }, to: { day: null, minute: 2, concurrency: 5 } }]]);
  });
});
