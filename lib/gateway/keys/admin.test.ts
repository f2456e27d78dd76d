import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { z } from "zod";
import { operatorApp } from "./operator.ts";
import {
  consoleKeyFor,
  createKey,
  decideKeyRequest,
  KeyRuleError,
  listAudit,
  listKeys,
  pickUpKey,
  renameKey,
  requestKey,
  revokeKey,
  rotateKey,
  setKeyLimits,
  setKeyScopes,
} from "./admin.ts";
import { isKeyNameTaken } from "./names.ts";
import { toKeyRecord } from "./record.ts";

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
    expect(fresh.remaining.minute.remaining).toBe(100 - 23);
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

  it("caps the active client keys a user holds, whether the operator or an approved request creates them", async () => {
    const rules = { maxKeysPerUser: 2 };
    const email = `cap-${Date.now()}@example.test`;
    const first = await createKey(gw.rt.db, { name: "one", email }, "operator", rules);
    const second = await createKey(gw.rt.db, { name: "two", email }, "operator", rules);
    await expect(createKey(gw.rt.db, { name: "three", email }, "operator", rules)).rejects.toThrow(
      /already has 2 active keys/,
    );
    const userId = first.record.userId!;
    // Console keys do not count. A key in its rotation grace period still works, so it counts: at the cap
    // a rotation must end the old key at once.
    await consoleKeyFor(gw.rt.db, userId);
    await expect(rotateKey(gw.rt.db, first.id, { graceHours: 24 }, "me", userId, rules)).rejects.toThrow(
      /already has 2 active keys.*grace period included\); revoke one first, or rotate with no grace period/,
    );
    const rotated = (await rotateKey(gw.rt.db, first.id, { graceHours: 0 }, "me", userId, rules))!;
    const request = await requestKey(gw.rt.db, userId, REQUEST, { mode: "auto" });
    await expect(pickUpKey(gw.rt.db, request.id, userId, rules)).rejects.toThrow(KeyRuleError);
    // Refused, the request is still there to collect once a key is revoked.
    expect((await gw.rt.db.prisma.keyRequest.findUniqueOrThrow({ where: { id: request.id } })).keyId).toBeNull();
    await revokeKey(gw.rt.db, second.id, "me", userId);
    // The room freed is taken by a rotation with a grace period: its old key and the replacement both work.
    const again = (await rotateKey(gw.rt.db, rotated.id, { graceHours: 24 }, "me", userId, rules))!;
    await expect(pickUpKey(gw.rt.db, request.id, userId, rules)).rejects.toThrow(/already has 2 active keys/);
    await revokeKey(gw.rt.db, again.old.id, "me", userId);
    expect(await pickUpKey(gw.rt.db, request.id, userId, rules)).not.toBeNull();
  });

  it("applies MAX_KEYS_PER_USER on the operator endpoint, with a 409 that says why", async () => {
    const capped = await startTestGateway({ db, env: { MAX_KEYS_PER_USER: "1" } });
    try {
      const operator = operatorApp(capped.rt, "t0ken");
      const create = (name: string) =>
        operator.request("/keys", {
          method: "POST",
          headers: { authorization: "Bearer t0ken", "content-type": "application/json" },
          body: JSON.stringify({ name, email: "capped@example.test" }),
        });
      expect((await create("first")).status).toBe(201);
      const refused = await create("second");
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({
        error: expect.stringMatching(/already has 1 active keys, the most allowed \(1, keys in a rotation grace/),
      });
    } finally {
      await capped.close();
    }
  });

  it("takes a request through approval to a key that is created, and shown, once", async () => {
    const userId = await user();
    const request = await requestKey(gw.rt.db, userId, { ...REQUEST, organisation: "" }, { mode: "manual" });
    expect(request).toMatchObject({ status: "pending", organisation: null, keyId: null });
    // Not approved yet: nothing to pick up.
    expect(await pickUpKey(gw.rt.db, request.id, userId)).toBeNull();
    const decided = await decideKeyRequest(gw.rt.db, request.id, { approve: true, note: "welcome" }, "op@example.test");
    expect(decided).toMatchObject({ status: "approved", note: "welcome", decidedBy: "op@example.test" });
    expect(await decideKeyRequest(gw.rt.db, request.id, { approve: false }, "op@example.test")).toBeNull();
    // Someone else cannot collect it.
    expect(await pickUpKey(gw.rt.db, request.id, await user())).toBeNull();
    const [a, b] = await Promise.all([
      pickUpKey(gw.rt.db, request.id, userId),
      pickUpKey(gw.rt.db, request.id, userId),
    ]);
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
    const request = await requestKey(gw.rt.db, userId, REQUEST, { mode: "auto" });
    expect(request).toMatchObject({ status: "approved", decidedBy: "auto-approve" });
    expect(await pickUpKey(gw.rt.db, request.id, userId)).not.toBeNull();
    await expect(requestKey(gw.rt.db, userId, { ...REQUEST, intendedUse: "x" }, { mode: "manual" })).rejects.toThrow();
    await expect(
      requestKey(gw.rt.db, userId, { ...REQUEST, useType: "military" as never }, { mode: "manual" }),
    ).rejects.toThrow();
  });

  it("refuses names, uses and notes the database cannot store as validation errors, not database failures", async () => {
    const userId = await user();
    const refused = async (work: Promise<unknown>) => {
      const err = await work.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(z.ZodError);
      expect((err as z.ZodError).issues[0]?.message).toMatch(/NUL characters or unpaired surrogates/);
    };
    await refused(requestKey(gw.rt.db, userId, { ...REQUEST, name: "Thesis\u0000" }, { mode: "manual" }));
    await refused(
      requestKey(
        gw.rt.db,
        userId,
        { ...REQUEST, intendedUse: "Collecting papers \ud800 for my thesis" },
        { mode: "manual" },
      ),
    );
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
    expect((await refused.json()).error).toBe("API key has been rotated: use its replacement");
    expect((await keyInfo(again.key)).status).toBe(200);
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

  it("keeps key names unique per owner, case-insensitively, across keys and open requests, saying what has the name", async () => {
    const { userId, email } = await createTestSession(gw.rt.db);
    const auto = { mode: "auto" } as const;
    const laptop = (await pickUpKey(
      gw.rt.db,
      (await requestKey(gw.rt.db, userId, { ...REQUEST, name: "Laptop" }, auto)).id,
      userId,
    ))!;
    await expect(requestKey(gw.rt.db, userId, { ...REQUEST, name: " laptop " }, auto)).rejects.toThrow(
      `“laptop” is taken: this account already has a key of that name (${laptop.prefix}…). Choose another name.`,
    );
    await requestKey(gw.rt.db, userId, REQUEST, { mode: "manual" });
    await expect(requestKey(gw.rt.db, userId, { ...REQUEST, name: "THESIS" }, auto)).rejects.toThrow(
      /asked for a key of that name, waiting for approval/,
    );
    await expect(renameKey(gw.rt.db, laptop.id, { name: "thesis" }, "me", userId)).rejects.toThrow(KeyRuleError);
    // Its own name in other letters is not a clash, and another owner's names are theirs.
    expect((await renameKey(gw.rt.db, laptop.id, { name: "LAPTOP" }, "me", userId))?.name).toBe("LAPTOP");
    const other = await createTestSession(gw.rt.db);
    expect((await requestKey(gw.rt.db, other.userId, { ...REQUEST, name: "laptop" }, auto)).status).toBe("approved");
    // The operator CLI is held to the same rule (its 409 carries the message).
    await expect(createKey(gw.rt.db, { name: "Laptop", email }, "operator-cli")).rejects.toThrow(/is taken/);

    // A rotation's replacement takes the name over from the key it replaces.
    const rotated = (await rotateKey(gw.rt.db, laptop.id, { graceHours: 24 }, "me", userId))!;
    expect(rotated.record.name).toBe("LAPTOP");
    // Revoking frees a name; an expired key keeps it until revoked, and the message says so.
    await revokeKey(gw.rt.db, rotated.id, "me", userId);
    const reused = await createKey(gw.rt.db, { name: "laptop", email }, "operator-cli");
    await gw.rt.db.prisma.apiKey.update({ where: { id: reused.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(requestKey(gw.rt.db, userId, { ...REQUEST, name: "Laptop" }, auto)).rejects.toThrow(
      `“Laptop” is taken: it is the name of this account's expired key ${reused.prefix}…, which keeps it until it is revoked (under “Revoked and expired”). Choose another name.`,
    );

    // The database holds the rule too: a write that skipped the check is refused by the index, which
    // the key functions turn back into the rule's error.
    const raced = await gw.rt.db.prisma.apiKey
      .create({
        data: { id: "key_raced", name: "LAPTOP", prefix: "sk_raced", hash: "raced", userId, lineageId: "key_raced" },
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(isKeyNameTaken(raced)).toBe(true);
    expect(isKeyNameTaken(new Error("P2002"))).toBe(false);
  });

  it("refuses to pick up an approved key whose name another key has taken since, until that key is renamed", async () => {
    const userId = await user();
    const request = await requestKey(gw.rt.db, userId, { ...REQUEST, name: "server" }, { mode: "manual" });
    await decideKeyRequest(gw.rt.db, request.id, { approve: true }, "op@example.test");
    const other = await owned(userId, { name: "something" });
    // Renamed straight in the database: the portal's rename would have refused the pending name.
    await gw.rt.db.prisma.apiKey.update({ where: { id: other.id }, data: { name: "Server" } });
    await expect(pickUpKey(gw.rt.db, request.id, userId)).rejects.toThrow(
      /“server” is taken: this account already has a key of that name .*Rename that key first, then create this one\.$/,
    );
    expect((await gw.rt.db.prisma.keyRequest.findUniqueOrThrow({ where: { id: request.id } })).keyId).toBeNull();
    await renameKey(gw.rt.db, other.id, { name: "other server" }, "me", userId);
    expect((await pickUpKey(gw.rt.db, request.id, userId))?.record.name).toBe("server");
  });

  it("makes a key in one step with the scopes and expiry asked for; the scopes are its grant", async () => {
    const userId = await user();
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    const request = await requestKey(
      gw.rt.db,
      userId,
      { ...REQUEST, scopes: ["llm", "data", "llm"], expiresAt },
      { mode: "auto" },
    );
    expect(request).toMatchObject({ status: "approved", scopes: ["data", "llm"], expiresAt });
    const created = (await pickUpKey(gw.rt.db, request.id, userId))!;
    expect(created.record).toMatchObject({ scopes: ["data", "llm"], expiresAt: expiresAt.getTime() });
    expect((await listKeys(gw.rt.db, userId))[0]).toMatchObject({ granted_scopes: ["data", "llm"] });
    await expect(setKeyScopes(gw.rt.db, created.id, { scopes: ["proxy"] }, "me", userId)).rejects.toThrow(KeyRuleError);
    const detail = (await listAudit(gw.rt.db, 500)).find(
      (a) => a.target === request.id && a.action === "key_request.create",
    )?.detail;
    expect(detail).toMatchObject({ scopes: ["data", "llm"], expires_at: expiresAt.toISOString() });

    await expect(
      requestKey(gw.rt.db, userId, { ...REQUEST, name: "late", expiresAt: new Date(Date.now() - 1) }, { mode: "auto" }),
    ).rejects.toThrow("the expiry date must be in the future");
    // Approved too late: the day it was to stop has passed before it was picked up.
    const slow = await requestKey(gw.rt.db, userId, { ...REQUEST, name: "slow", expiresAt }, { mode: "manual" });
    await decideKeyRequest(gw.rt.db, slow.id, { approve: true }, "op@example.test");
    const later = new Date(expiresAt.getTime() + 1);
    await expect(pickUpKey(gw.rt.db, slow.id, userId, undefined, later)).rejects.toThrow(
      /which has passed; request a new one/,
    );
    expect((await gw.rt.db.prisma.keyRequest.findUniqueOrThrow({ where: { id: slow.id } })).keyId).toBeNull();
  });

  it("approves by domain on the requester's own address, exactly, and audits the domain", async () => {
    const policy = { mode: "domains", domains: ["example.com"] } as const;
    const inside = await createTestSession(gw.rt.db, `Ada-${Date.now()}@EXAMPLE.com`);
    const request = await requestKey(gw.rt.db, inside.userId, REQUEST, policy);
    expect(request).toMatchObject({ status: "approved", decidedBy: "auto-approve:example.com" });
    const audit = (await listAudit(gw.rt.db, 500))
      .filter((a) => a.target === request.id)
      .map((a) => [a.actor, a.action]);
    expect(audit).toEqual([
      ["auto-approve:example.com", "key_request.approve"],
      [`user:${inside.userId}`, "key_request.create"],
    ]);
    const sub = await createTestSession(gw.rt.db, `bob-${Date.now()}@sub.example.com`);
    expect(await requestKey(gw.rt.db, sub.userId, REQUEST, policy)).toMatchObject({
      status: "pending",
      decidedBy: null,
    });
  });
});

describe.runIf(process.env.REDIS_URL)("keys created on the operator endpoint, with Redis", () => {
  it("are announced on the key channel, so other instances drop a cached 'unknown' at once", async () => {
    const gw = await startTestGateway({ limits: "redis" });
    const listener = new Redis(process.env.REDIS_URL!);
    try {
      const heard: string[] = [];
      listener.on("message", (_channel, hash: string) => heard.push(hash));
      await listener.subscribe("gw:keys:changed");
      const res = await operatorApp(gw.rt, "t0ken").request("/keys", {
        method: "POST",
        headers: { authorization: "Bearer t0ken", "content-type": "application/json" },
        body: JSON.stringify({ name: "announced" }),
      });
      expect(res.status).toBe(201);
      const { id } = await res.json();
      const { hash } = await gw.rt.db.prisma.apiKey.findUniqueOrThrow({ where: { id } });
      await expect.poll(() => heard, { timeout: 2000 }).toContain(hash);
    } finally {
      await listener.quit();
      await gw.close();
    }
  });
});
