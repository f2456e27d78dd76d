import { describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import { priceOf } from "../../usage/prices.ts";
import { restoreDefaultPrice, setPrice } from "./price-edits.ts";

describe.each(databaseBackends)("the operator's price edits (%s)", (backend) => {
  const t = useDatabase(backend);

  it("sets a model's price and restores its default, each in the audit log as the operator's", async () => {
    const target = "example/price-edit-model";
    await setPrice(t.db, { provider: "example", model: "price-edit-model", input: 1.5, output: 6 }, "ops@example.test");
    expect(priceOf("example", "price-edit-model")).toEqual([1.5, 6]);
    expect(await t.db.prisma.modelPrice.findMany({ where: { provider: "example" } })).toMatchObject([
      { model: "price-edit-model", inputPerMillion: 1.5, outputPerMillion: 6, updatedBy: "ops@example.test" },
    ]);

    await restoreDefaultPrice(t.db, "example", "price-edit-model", "ops@example.test");
    expect(priceOf("example", "price-edit-model")).toBeUndefined();
    expect(await t.db.prisma.modelPrice.count({ where: { provider: "example" } })).toBe(0);

    const audit = await t.db.prisma.auditLog.findMany({ where: { target }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.actor, a.action, a.detail])).toEqual([
      ["ops@example.test", "price.set", { input: 1.5, output: 6 }],
      ["ops@example.test", "price.reset", null],
    ]);
  });
});
