import { describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import { listAudit } from "./audit-log.ts";

describe.each(databaseBackends)("the audit log (%s)", (backend) => {
  const t = useDatabase(backend);

  it("lists the newest entries first, at most `limit`, with ids as strings and times in ISO form", async () => {
    for (const action of ["first", "second", "third"])
      await t.db.prisma.auditLog.create({ data: { actor: "ops", action, target: "key_a", detail: { action } } });
    const entries = await listAudit(t.db, 2);
    expect(entries.map((e) => e.action)).toEqual(["third", "second"]);
    expect(entries[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      actor: "ops",
      action: "third",
      target: "key_a",
      detail: { action: "third" },
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(await listAudit(t.db)).toHaveLength(3);
  });
});
