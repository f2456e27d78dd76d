import { describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import { CONSOLE_KEY_NAME, consoleKeyFor } from "./console-key.ts";
import { revokeKey } from "./key-changes.ts";

describe.each(databaseBackends)("a user's console key (%s)", (backend) => {
  const t = useDatabase(backend);

  it("is made on first use, once even when first asked for twice at once, and audited as the user's", async () => {
    const { userId } = await createTestSession(t.db);
    const [a, b] = await Promise.all([consoleKeyFor(t.db, userId), consoleKeyFor(t.db, userId)]);
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ name: CONSOLE_KEY_NAME, kind: "console", userId, scopes: [], limitKey: a.id });
    expect((await consoleKeyFor(t.db, userId)).id).toBe(a.id);
    expect(await t.db.prisma.apiKey.count({ where: { userId } })).toBe(1);
    const audit = await t.db.prisma.auditLog.findMany({ where: { target: a.id } });
    expect(audit.map((e) => [e.actor, e.action])).toEqual([[`user:${userId}`, "key.create"]]);
  });

  it("stays the answer once revoked, so an operator can switch a user's console off", async () => {
    const { userId } = await createTestSession(t.db);
    const { id } = await consoleKeyFor(t.db, userId);
    await revokeKey(t.db, id, "operator");
    expect(await consoleKeyFor(t.db, userId)).toMatchObject({ id, status: "revoked" });
  });
});
