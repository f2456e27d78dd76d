/*
 * How budgets are worded, on the dashboard and in alert mails: no server imports, so client components can
 * import this module.
 */

export type BudgetMetricName = "requests" | "tokens" | "cost";

/** An amount in a budget's metric: whole requests and tokens, dollars to the cent (a tenth of a cent below $1). */
export function formatAmount(metric: BudgetMetricName, n: number): string {
  if (metric === "cost")
    return `$${n.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: n < 1 ? 4 : 2 })}`;
  return `${Math.floor(n).toLocaleString("en")} ${metric}`;
}

/** "812 of 1,000 requests", "$0.0123 of $5.00 (estimated)". */
export function describeBudgetUse(metric: BudgetMetricName, used: number, limit: number): string {
  if (metric === "cost") return `${formatAmount(metric, used)} of ${formatAmount(metric, limit)} (estimated)`;
  return `${Math.floor(used).toLocaleString("en")} of ${formatAmount(metric, limit)}`;
}

/** The share used, 0..1 and beyond, for a progress bar and a percentage. */
export const shareUsed = (used: number, limit: number) => (limit > 0 ? used / limit : 0);

/** The operator's ceilings as the budget form offers them ("at most 1,000 requests"). */
export function ceilingTexts(c: Record<BudgetMetricName, number>): Record<BudgetMetricName, string> {
  return {
    requests: formatAmount("requests", c.requests),
    tokens: formatAmount("tokens", c.tokens),
    cost: formatAmount("cost", c.cost),
  };
}
