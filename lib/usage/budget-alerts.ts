import type { Logger } from "pino";
import type { Database } from "../db/client.ts";
import { loadMailSettings } from "../portal/config.ts";
import { createMailer, deliverBudgetAlert } from "../portal/mail.ts";
import { describeBudgetUse } from "./budget-text.ts";
import type { BudgetAlert } from "./budgets.ts";

/**
 * How the gateway delivers budget alerts, off the request path, through the portal's SMTP settings (or
 * to the log when none are set, as sign-in links are): a key's to its owner; a user's to that user; a
 * team's to its owner and admins; an organisation's to the owners and admins of its teams.
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
  const common = (alert: BudgetAlert) => ({
    month: alert.month,
    threshold: alert.threshold,
    usedText: describeBudgetUse(alert.budget.metric, alert.used, alert.budget.limit),
    hardStop: alert.budget.hardStop,
  });
  return async (alert) => {
    const { holder } = alert;
    if (holder.level === "key") {
      // The alert is the lineage's (its first key's id): the mail names the key in use now, its newest.
      const key = await db.prisma.apiKey.findFirst({
        where: { OR: [{ id: alert.keyId }, { lineageId: alert.keyId }] },
        orderBy: { createdAt: "desc" },
        select: { name: true, prefix: true, user: { select: { email: true } } },
      });
      if (!key) return;
      await deliverBudgetAlert(mailer, logger, {
        ...common(alert),
        to: key.user?.email ?? null,
        subject: { kind: "key", name: key.name, prefix: key.prefix },
        url: `${origin}/usage#budgets`,
      });
      return;
    }
    const recipients = await levelRecipients(db, holder.level, holder.id);
    for (const to of recipients.length ? recipients : [null])
      await deliverBudgetAlert(mailer, logger, {
        ...common(alert),
        to,
        subject: { kind: "level", level: holder.level, name: holder.name },
        url: `${origin}/usage`,
      });
  };
}

/** Who hears of a level's budget: the user themself, or the owners and admins of the team (or the organisation's teams). */
async function levelRecipients(db: Database, level: "user" | "team" | "organisation", id: string): Promise<string[]> {
  if (level === "user") {
    const user = await db.prisma.user.findUnique({ where: { id }, select: { email: true } });
    return user?.email ? [user.email] : [];
  }
  const members = await db.prisma.teamMember.findMany({
    where: {
      role: { in: ["owner", "admin"] },
      ...(level === "team" ? { teamId: id } : { team: { organisationId: id } }),
    },
    select: { user: { select: { email: true } } },
  });
  return [...new Set(members.flatMap((m) => (m.user.email ? [m.user.email] : [])))];
}
