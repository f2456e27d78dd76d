"use server";

import { revalidatePath } from "next/cache";
import { getGateway } from "@/lib/instance.ts";
import { budgetInput, BudgetRuleError, removeBudget, setBudget } from "@/lib/portal/usage/budgets.ts";
import { formIssue, parseForm } from "@/lib/portal/forms/form-issue.ts";
import { currentSession } from "@/lib/portal/sign-in/session.ts";
import { describeBudgetUse } from "@/lib/usage/budget-text.ts";

export type BudgetActionState = { error?: string; message?: string };

async function signedIn() {
  const session = await currentSession();
  if (!session) throw new Error("signed out: sign in again");
  const { rt } = await getGateway();
  return { rt, userId: session.user.id, actor: session.user.email ?? `user:${session.user.id}` };
}

/** Sets one of the user's keys' monthly budget, within the operator's ceiling. */
export async function setMyBudget(_previous: BudgetActionState, form: FormData): Promise<BudgetActionState> {
  const { rt, userId, actor } = await signedIn();
  const parsed = parseForm(budgetInput(rt.config.budgets.ceilings), Object.fromEntries(form), {
    keyId: "Key",
    metric: "Budget in",
    limit: "Monthly limit",
  });
  if (!parsed.success) return { error: formIssue(parsed.error) };
  const { keyId, metric, limit, hardStop } = parsed.data;
  try {
    await setBudget(rt.db, rt.budgets, userId, actor, { keyId, metric, limit, hardStop });
  } catch (err) {
    if (err instanceof BudgetRuleError) return { error: err.message };
    throw err;
  }
  revalidatePath("/usage");
  revalidatePath("/keys");
  const used = rt.budgets.status(keyId)?.used ?? 0;
  return {
    message: `Budget set: ${describeBudgetUse(metric, used, limit)} this month${hardStop ? ", requests refused once it is used up" : ""}.`,
  };
}

export async function removeMyBudget(_previous: BudgetActionState, form: FormData): Promise<BudgetActionState> {
  const { rt, userId, actor } = await signedIn();
  const keyId = String(form.get("keyId") ?? "");
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(keyId)) return { error: "not a key id" };
  try {
    await removeBudget(rt.db, rt.budgets, userId, actor, keyId);
  } catch (err) {
    if (err instanceof BudgetRuleError) return { error: err.message };
    throw err;
  }
  revalidatePath("/usage");
  revalidatePath("/keys");
  return { message: "Budget removed." };
}
