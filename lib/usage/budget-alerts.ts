import type { Logger } from "pino";
import type { Database } from "../db/client.ts";
import { loadMailSettings } from "../portal/config.ts";
import { createMailer, deliverBudgetAlert } from "../portal/mail.ts";
import { describeBudgetUse } from "./budget-text.ts";
import type { BudgetAlert } from "./budgets.ts";

/**
 * How the gateway delivers budget alerts: mailed to the key's owner through the portal's SMTP settings,
 * or written to the log when none are set (as sign-in links are). Runs off the request path.
 */
export function budgetAlertDelivery(
  db: Database,
  logger: Logger,
  publicBaseUrl: string | undefined,
): (alert: BudgetAlert) => Promise<void> {
  const mailer = createMailer(loadMailSettings());
  const origin = (process.env.NEXTAUTH_URL ?? publicBaseUrl ?? `http://localhost:${process.env.PORT || 3000}`).replace(
    /\/+$/,
    "",
  );
  return async (alert) => {
    // The alert is the lineage's (its first key's id): the mail names the key in use now, its newest.
    const key = await db.prisma.apiKey.findFirst({
      where: { OR: [{ id: alert.keyId }, { lineageId: alert.keyId }] },
      orderBy: { createdAt: "desc" },
      select: { name: true, prefix: true, user: { select: { email: true } } },
    });
    if (!key) return;
    await deliverBudgetAlert(mailer, logger, {
      to: key.user?.email ?? null,
      keyName: key.name,
      prefix: key.prefix,
      month: alert.month,
      threshold: alert.threshold,
      usedText: describeBudgetUse(alert.budget.metric, alert.used, alert.budget.limit),
      hardStop: alert.budget.hardStop,
      url: `${origin}/usage#budgets`,
    });
  };
}
