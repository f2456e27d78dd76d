import { z } from "@hono/zod-openapi";
import type { BudgetStatus } from "./budgets.ts";

/** A monthly budget as the API shows it: GET /v1/usage for the key's own, GET /v1/key for its levels'. */
export const BudgetViewSchema = z.object({
  metric: z.enum(["requests", "tokens", "cost"]),
  monthly_limit: z.number(),
  used: z.number(),
  hard_stop: z.boolean(),
  month: z.string(),
});

/** A budget's standing for the API (cost rounded to a millionth of a dollar); null without a budget. */
export function budgetView(status: BudgetStatus | undefined): z.infer<typeof BudgetViewSchema> | null {
  if (!status) return null;
  const { budget, used, month } = status;
  const round = (n: number) => (budget.metric === "cost" ? Math.round(n * 1_000_000) / 1_000_000 : n);
  return { metric: budget.metric, monthly_limit: budget.limit, used: round(used), hard_stop: budget.hardStop, month };
}
