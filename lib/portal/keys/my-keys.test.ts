import { describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import {
  decideKeyRequest,
  dismissKeyRequest,
  requestKey,
  withdrawKeyRequest,
} from "../../gateway/keys/key-requests.ts";
import { grantedAreasOf, keyRequestsOf } from "./my-keys.ts";

describe.each(databaseBackends)("a user's own keys and requests (%s)", (backend) => {
  const t = useDatabase(backend);

  it("lists only the user's requests, newest first", async () => {
    const { userId } = await createTestSession(t.db);
    const other = await createTestSession(t.db);
    const request = (id: string, owner: string, at: string) =>
      t.db.prisma.keyRequest.create({
        data: {
          id,
          userId: owner,
          name: id,
          intendedUse: "Trying it out",
          useType: "personal",
          createdAt: new Date(at),
        },
      });
    await request("kr_old", userId, "2026-03-01T00:00:00Z");
    await request("kr_new", userId, "2026-03-02T00:00:00Z");
    await request("kr_theirs", other.userId, "2026-03-03T00:00:00Z");
    expect((await keyRequestsOf(t.db, userId)).map((r) => r.id)).toEqual(["kr_new", "kr_old"]);
  });

  it("lets the requester withdraw a pending request and dismiss a declined one, never another's or a decided one", async () => {
    const { userId } = await createTestSession(t.db);
    const other = await createTestSession(t.db);
    const manual = { mode: "manual" } as const;
    const ask = (name: string, owner = userId) =>
      requestKey(t.db, owner, { name, intendedUse: "Trying the gateway out.", useType: "personal" }, manual);
    const pending = await ask("Pending");
    const declined = await ask("Declined");
    const approved = await ask("Approved");
    await decideKeyRequest(t.db, declined.id, { approve: false, note: "Too vague" }, "ops@example.test");
    await decideKeyRequest(t.db, approved.id, { approve: true }, "ops@example.test");
    const listed = async () => (await keyRequestsOf(t.db, userId)).map((r) => r.name).sort();
    expect(await listed()).toEqual(["Approved", "Declined", "Pending"]);

    // Not theirs, or not in the state the action is for: nothing changes.
    expect(await withdrawKeyRequest(t.db, pending.id, other.userId)).toBe(false);
    expect(await withdrawKeyRequest(t.db, approved.id, userId)).toBe(false);
    expect(await dismissKeyRequest(t.db, pending.id, userId)).toBe(false);
    expect(await dismissKeyRequest(t.db, declined.id, other.userId)).toBe(false);
    expect(await listed()).toEqual(["Approved", "Declined", "Pending"]);

    expect(await withdrawKeyRequest(t.db, pending.id, userId)).toBe(true);
    expect(await dismissKeyRequest(t.db, declined.id, userId)).toBe(true);
    expect(await listed()).toEqual(["Approved"]);
    // The operator can no longer decide a withdrawn request, and its name is free for a new one.
    expect(await decideKeyRequest(t.db, pending.id, { approve: true }, "ops@example.test")).toBeNull();
    expect((await ask("Pending")).status).toBe("pending");
    // Both stay in the operator's history.
    const kept = await t.db.prisma.keyRequest.findMany({ where: { id: { in: [pending.id, declined.id] } } });
    expect(kept.map((r) => r.status).sort()).toEqual(["declined", "withdrawn"]);
    const audit = await t.db.prisma.auditLog.findMany({ where: { target: pending.id } });
    expect(audit.map((a) => [a.action, a.actor])).toContainEqual(["key_request.withdraw", `user:${userId}`]);
  });

  it("reads a key's granted areas for its owner only, leaving operator scopes out", async () => {
    const { userId } = await createTestSession(t.db);
    const other = await createTestSession(t.db);
    await t.db.prisma.apiKey.create({
      data: {
        id: "key_granted",
        name: "granted",
        prefix: "sk_granted",
        hash: "granted",
        userId,
        lineageId: "key_granted",
        scopes: ["llm", "ollama:admin"],
        grantedScopes: ["data", "llm", "ollama:admin"],
      },
    });
    expect(await grantedAreasOf(t.db, "key_granted", userId)).toEqual(["data", "llm"]);
    expect(await grantedAreasOf(t.db, "key_granted", other.userId)).toBeNull();
    expect(await grantedAreasOf(t.db, "key_unknown", userId)).toBeNull();
  });
});
