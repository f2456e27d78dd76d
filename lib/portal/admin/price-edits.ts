import type { Database } from "../../db/client.ts";
import { resetPrice, savePrice } from "../../usage/prices.ts";

/** A model's price as the operator sets it: USD per million input and output tokens. */
export type PriceEdit = { provider: string; model: string; input: number; output: number };

/** Sets the operator's price for a model (a default overridden, or a model added), in the audit log as `actor`'s. */
export async function setPrice(db: Database, p: PriceEdit, actor: string): Promise<void> {
  await savePrice(db, p, actor);
  await db.prisma.auditLog.create({
    data: {
      actor,
      action: "price.set",
      target: `${p.provider}/${p.model}`,
      detail: { input: p.input, output: p.output },
    },
  });
}

/** Drops the operator's price for a model, so its default applies again (or none), in the audit log as `actor`'s. */
export async function restoreDefaultPrice(db: Database, provider: string, model: string, actor: string): Promise<void> {
  await resetPrice(db, provider, model);
  await db.prisma.auditLog.create({ data: { actor, action: "price.reset", target: `${provider}/${model}` } });
}
