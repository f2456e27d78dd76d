import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { listAudit } from "./audit-log.ts";
import { renameKey, setKeyScopes } from "./key-changes.ts";
import { listKeys } from "./key-list.ts";
import { decideKeyRequest, pickUpKey, requestKey } from "./key-requests.ts";
import { KeyRuleError } from "./key-rules.ts";
import { toKeyRecord } from "./record.ts";

const REQUEST = { name: "Thesis", intendedUse: "Collecting papers for my thesis", useType: "research" as const };

describe.each(databaseBackends)("key requests (%s)", (db) => {
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
