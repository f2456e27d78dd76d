import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createKey, revokeKey, setKeyLimits } from "../../gateway/keys/key-changes.ts";
import { decideKeyRequest, requestKey } from "../../gateway/keys/key-requests.ts";
import {
  auditListParams,
  auditPage,
  keyListParams,
  keyRequestsPage,
  keysPage,
  parseListParams,
  requestListParams,
} from "./lists.ts";

const USE = { intendedUse: "Trying the admin lists out.", useType: "research" as const };

describe.each(databaseBackends)("the operator's paged lists (%s)", (db) => {
  let gw: TestGateway;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    gw = await startTestGateway({ db });
    const d = gw.rt.db;
    for (let i = 1; i <= 27; i++)
      ids[`k${i}`] = (await createKey(d, { name: `Bulk ${i}`, email: `bulk${i}@example.test` }, "cli")).id;
    await revokeKey(d, ids.k1!, "ops@example.test");
    await setKeyLimits(d, ids.k2!, { day: 500, minute: null, concurrency: null }, "ops@example.test");
    const alice = await d.prisma.user.create({ data: { email: "alice@example.test" } });
    const manual = { mode: "manual" } as const;
    const alpha = await requestKey(d, alice.id, { name: "Alpha", ...USE }, manual);
    const beta = await requestKey(d, alice.id, { name: "Beta", ...USE }, manual);
    await requestKey(d, alice.id, { name: "Gamma", ...USE }, manual);
    await decideKeyRequest(d, alpha.id, { approve: true, note: "Welcome aboard" }, "ops@example.test");
    await decideKeyRequest(d, beta.id, { approve: false, note: "Too broad" }, "ops@example.test");
  });
  afterAll(async () => {
    await gw?.close();
  });

  const params = <T extends Parameters<typeof parseListParams>[0]>(schema: T, query: Record<string, string>) => {
    const parsed = parseListParams(schema, query);
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.params;
  };

  it("pages working keys newest first, and finds them by name, prefix or owner's address", async () => {
    const first = await keysPage(gw.rt.db, params(keyListParams, {}));
    expect(first).toMatchObject({ total: 26, page: 1, pages: 2 });
    expect(first.rows).toHaveLength(25);
    expect(first.rows[0]!.name).toBe("Bulk 27");
    const second = await keysPage(gw.rt.db, params(keyListParams, { page: "2" }));
    expect(second.rows.map((k) => k.name)).toEqual(["Bulk 2"]);
    expect(second.rows[0]!.limits).toEqual({ day: 500, minute: null, concurrency: null });

    const revoked = await keysPage(gw.rt.db, params(keyListParams, { state: "revoked" }));
    expect(revoked.rows.map((k) => k.name)).toEqual(["Bulk 1"]);
    const byOwner = await keysPage(gw.rt.db, params(keyListParams, { q: "BULK13@example.test" }));
    expect(byOwner.rows.map((k) => k.email)).toEqual(["bulk13@example.test"]);
    const byPrefix = await keysPage(gw.rt.db, params(keyListParams, { q: byOwner.rows[0]!.prefix }));
    expect(byPrefix.rows.map((k) => k.name)).toEqual(["Bulk 13"]);
  });

  it("lists waiting requests oldest first, and decided ones with their notes, searchable by note or address", async () => {
    const waiting = await keyRequestsPage(gw.rt.db, params(requestListParams, {}));
    expect(waiting.rows.map((r) => r.name)).toEqual(["Gamma"]);
    const decided = await keyRequestsPage(gw.rt.db, params(requestListParams, { status: "decided" }));
    expect(decided.rows.map((r) => [r.name, r.status, r.note])).toEqual([
      ["Beta", "declined", "Too broad"],
      ["Alpha", "approved", "Welcome aboard"],
    ]);
    const byNote = await keyRequestsPage(gw.rt.db, params(requestListParams, { status: "all", q: "too broad" }));
    expect(byNote.rows.map((r) => r.name)).toEqual(["Beta"]);
    const byAddress = await keyRequestsPage(gw.rt.db, params(requestListParams, { status: "all", q: "alice@" }));
    expect(byAddress.total).toBe(3);
  });

  it("finds audit entries by the address of the person who acted, and names what they mention", async () => {
    const mine = await auditPage(gw.rt.db, params(auditListParams, { q: "alice@example.test" }));
    expect(mine.rows.map((r) => r.action)).toEqual(Array(3).fill("key_request.create"));
    expect([...mine.names.people.values()]).toEqual(["alice@example.test"]);
    expect([...mine.names.requests.values()].sort()).toEqual(["Alpha", "Beta", "Gamma"]);
    const limits = await auditPage(gw.rt.db, params(auditListParams, { q: "key.limits" }));
    expect(limits.rows).toHaveLength(1);
    expect(limits.names.keys.get(ids.k2!)?.name).toBe("Bulk 2");
    const all = await auditPage(gw.rt.db, params(auditListParams, {}));
    expect(all).toMatchObject({ total: 27 + 1 + 1 + 3 + 2, pages: 1 });
  });

  it("names a bad query string instead of failing", () => {
    expect(parseListParams(keyListParams, { page: "0" })).toMatchObject({ ok: false, error: /^page / });
    expect(parseListParams(keyListParams, { state: "lost" })).toMatchObject({ ok: false, error: /^state / });
    expect(parseListParams(auditListParams, { q: "x".repeat(201) })).toMatchObject({ ok: false });
    expect(parseListParams(auditListParams, { q: ["a", "b"], page: ["3"] })).toEqual({
      ok: true,
      params: { q: "a", page: 3 },
    });
  });
});
