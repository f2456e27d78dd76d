"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getGateway } from "@/lib/instance.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { restoreDefaultPrice, setPrice } from "@/lib/portal/admin/price-edits.ts";
import { formIssue } from "@/lib/portal/forms/form-issue.ts";

export type PriceActionState = { error?: string; message?: string };

async function operator() {
  const session = await currentSession();
  if (!session?.user.operator) throw new Error("operators only");
  const { rt } = await getGateway();
  return { rt, actor: session.user.email ?? `user:${session.user.id}` };
}

const name = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} is required`)
    .max(200)
    .regex(/^[\w.:/@+-]+$/, `${what}: letters, digits and . : / @ + - _ only`);
const perMillion = (what: string) =>
  z.coerce
    .number({ message: `${what} must be a number` })
    .finite(`${what} must be a number`)
    .min(0, `${what} cannot be negative`)
    .max(10_000, `${what}: at most $10,000 per million tokens`);

const priceForm = z.object({
  provider: name("provider").transform((s) => s.toLowerCase()),
  model: name("model"),
  input: perMillion("input price"),
  output: perMillion("output price"),
});

/** Sets a model's price (USD per million tokens): a default overridden, or a model added. */
export async function setModelPrice(_previous: PriceActionState, form: FormData): Promise<PriceActionState> {
  const { rt, actor } = await operator();
  const parsed = priceForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: formIssue(parsed.error) };
  const p = parsed.data;
  await setPrice(rt.db, p, actor);
  revalidatePath("/admin/prices");
  return { message: `${p.provider}/${p.model}: $${p.input} in, $${p.output} out per million tokens.` };
}

/** Drops the operator's price for a model: the default applies again (or none, for a model added). */
export async function resetModelPrice(_previous: PriceActionState, form: FormData): Promise<PriceActionState> {
  const { rt, actor } = await operator();
  const parsed = priceForm.pick({ provider: true, model: true }).safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: formIssue(parsed.error) };
  const { provider, model } = parsed.data;
  await restoreDefaultPrice(rt.db, provider, model, actor);
  revalidatePath("/admin/prices");
  return { message: `${provider}/${model}: back to its default.` };
}
