import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { listAudit } from "./audit-log.ts";
import { consoleKeyFor } from "./console-key.ts";
import { renameKey, revokeKey, setKeyLimits, setKeyModelRules, setKeyScopes } from "./key-changes.ts";
import { rotateKey } from "./key-rotation.ts";
import { listKeys } from "./key-list.ts";
import { toKeyRecord } from "./record.ts";

describe.each(databaseBackends)("key changes (%s)", (db) => {
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

  it("lets an owner narrow the operator's scopes but never widen them, nor clear them to mean every area", async () => {
    const userId = await user();
    const { id, key } = await owned(userId, { scopes: ["data", "llm"] });
    await expect(setKeyScopes(gw.rt.db, id, { scopes: [] }, "me", userId)).rejects.toThrow(
      /may call only data, llm .*every area/,
    );
    await expect(setKeyScopes(gw.rt.db, id, { scopes: ["data", "proxy"] }, "me", userId)).rejects.toThrow(
      /cannot be given proxy/,
    );
    gw.rt.keys.remember((await setKeyScopes(gw.rt.db, id, { scopes: ["llm"] }, "me", userId))!);
    const outside = await gw.request("/v1/data/sources", { headers: { "X-API-Key": key } });
    expect(outside.status).toBe(403);
    // Back up to the grant is fine; the operator may widen it (to every area).
    expect((await setKeyScopes(gw.rt.db, id, { scopes: ["data", "llm"] }, "me", userId))?.scopes).toEqual([
      "data",
      "llm",
    ]);
    expect((await setKeyScopes(gw.rt.db, id, { scopes: [] }, "operator"))?.scopes).toEqual([]);
    expect((await setKeyScopes(gw.rt.db, id, { scopes: ["proxy"] }, "me", userId))?.scopes).toEqual(["proxy"]);
    expect((await setKeyScopes(gw.rt.db, id, { scopes: [] }, "me", userId))?.scopes).toEqual([]);
    expect((await listKeys(gw.rt.db, userId)).find((k) => k.id === id)?.granted_scopes).toEqual([]);
  });

  it("grants the operator scope only through the operator path, and a user's scope edit keeps it", async () => {
    const userId = await user();
    const { id } = await gw.key({ name: "runner admin", scopes: ["ollama:admin"] });
    await gw.rt.db.prisma.apiKey.update({ where: { id }, data: { userId } });
    await expect(setKeyScopes(gw.rt.db, id, { scopes: ["ollama:admin" as never] }, "me", userId)).rejects.toThrow();
    expect((await setKeyScopes(gw.rt.db, id, { scopes: ["llm"] }, "me", userId))?.scopes).toEqual([
      "llm",
      "ollama:admin",
    ]);
    expect((await setKeyScopes(gw.rt.db, id, { scopes: [] }, "me", userId))?.scopes).toEqual(["ollama:admin"]);
  });

  it("lets a user rename, scope and revoke only their own client keys", async () => {
    const userId = await user();
    const stranger = await user();
    const { id, key } = await gw.key({ name: "mine" });
    await gw.rt.db.prisma.apiKey.update({ where: { id }, data: { userId } });
    expect(await renameKey(gw.rt.db, id, { name: "x" }, "stranger", stranger)).toBeNull();
    expect((await renameKey(gw.rt.db, id, { name: "  renamed " }, "me", userId))?.name).toBe("renamed");
    expect((await setKeyScopes(gw.rt.db, id, { scopes: ["llm", "data", "llm"] }, "me", userId))?.scopes).toEqual([
      "data",
      "llm",
    ]);
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
    expect(
      await setKeyLimits(gw.rt.db, "no-such-key", { day: null, minute: 2, concurrency: null }, "operator"),
    ).toBeNull();
    const record = (await setKeyLimits(gw.rt.db, id, { day: null, minute: 2, concurrency: 5 }, "operator"))!;
    gw.rt.keys.remember(record);
    expect((await keyInfo(key)).status).toBe(200);
    expect((await keyInfo(key)).status).toBe(200);
    const refused = await keyInfo(key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("2");
    expect((await listKeys(gw.rt.db)).find((k) => k.id === id)?.limits).toEqual({
      day: null,
      minute: 2,
      concurrency: 5,
    });
    const audit = (await listAudit(gw.rt.db, 500)).filter((a) => a.target === id && a.action === "key.limits");
    expect(audit.map((a) => [a.actor, a.detail])).toEqual([
      [
        "operator",
        { from: { day: null, minute: null, concurrency: null }, to: { day: null, minute: 2, concurrency: 5 } },
      ],
    ]);
  });

  it("lets an operator set a key's model rules: checked, in the record at once, audited, kept across a rotation", async () => {
    const userId = await user();
    const { id } = await owned(userId, { name: "ruled" });
    const set = (input: { allow: string[]; deny: string[] }) => setKeyModelRules(gw.rt.db, id, input, "operator");
    await expect(set({ allow: ["smart model"], deny: [] })).rejects.toThrow(/only letters, digits/);
    await expect(set({ allow: [], deny: ["x".repeat(201)] })).rejects.toThrow();
    await expect(set({ allow: Array.from({ length: 51 }, (_, i) => `m${i}`), deny: [] })).rejects.toThrow();
    expect(await setKeyModelRules(gw.rt.db, "no-such-key", { allow: [], deny: [] }, "operator")).toBeNull();

    const record = (await set({ allow: ["cheap", "anthropic/*", "cheap"], deny: ["openai/*"] }))!;
    expect(record.models).toEqual({ allow: ["cheap", "anthropic/*"], deny: ["openai/*"] });
    expect((await listKeys(gw.rt.db, userId)).find((k) => k.id === id)?.models).toEqual(record.models);
    const audit = (await listAudit(gw.rt.db, 500)).filter((a) => a.target === id && a.action === "key.models");
    expect(audit.map((a) => a.detail)).toEqual([
      { from: { allow: [], deny: [] }, to: { allow: ["cheap", "anthropic/*"], deny: ["openai/*"] } },
    ]);

    const rotated = (await rotateKey(gw.rt.db, id, { graceHours: 0 }, "me", userId))!;
    expect(rotated.record.models).toEqual(record.models);
    // Cleared rules leave the record without any: the router then checks nothing.
    expect((await setKeyModelRules(gw.rt.db, rotated.id, { allow: [], deny: [] }, "operator"))!.models).toBeUndefined();
  });
});
