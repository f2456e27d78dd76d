import { createTransport, type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { PortalConfig } from "./config.ts";

export type Mail = { to: string; subject: string; text: string; html?: string };

/** Sends portal mail through the configured SMTP server; false when none is configured (nothing sent). */
export type Mailer = { configured: boolean; send(mail: Mail): Promise<boolean> };

export function createMailer(config: Pick<PortalConfig, "smtp" | "emailFrom">): Mailer {
  let transport: Transporter | undefined;
  return {
    configured: config.smtp !== null,
    async send(mail) {
      if (config.smtp === null) return false;
      transport ??= createTransport(config.smtp);
      await transport.sendMail({ from: config.emailFrom, ...mail });
      return true;
    },
  };
}

/** How long a sign-in link works (next-auth's EmailProvider maxAge, in seconds). */
export const SIGN_IN_LINK_MAX_AGE_S = 15 * 60;

/**
 * The magic link: mailed when SMTP is configured, otherwise written to the server log, marked so an
 * operator running without mail (a first local start) can find it and sign in. `withholdFromLog`
 * (operator addresses in production) keeps it out of the log: anyone who reads the logs could sign in
 * as an operator with it.
 */
export async function deliverSignInLink(
  mailer: Mailer,
  logger: Logger,
  to: string,
  url: string,
  withholdFromLog = false,
): Promise<void> {
  const host = new URL(url).host;
  const sent = await mailer.send({
    to,
    subject: `Sign in to ${host}`,
    text: `Sign in to the API gateway at ${host}:\n\n${url}\n\nThe link works once and expires in ${SIGN_IN_LINK_MAX_AGE_S / 60} minutes. If you did not ask for it, ignore this mail.\n`,
    html: `<p>Sign in to the API gateway at ${escapeHtml(host)}:</p><p><a href="${escapeHtml(url)}">Sign in</a></p><p>The link works once and expires in ${SIGN_IN_LINK_MAX_AGE_S / 60} minutes. If you did not ask for it, ignore this mail.</p>`,
  });
  if (sent) return;
  if (withholdFromLog) {
    logger.warn(
      { email: to },
      "NO SMTP CONFIGURED: sign-in link for an operator address not written to the log in production (set SMTP_URL or SMTP_HOST)",
    );
    return;
  }
  logger.warn(
    { email: to, signInLink: url },
    "NO SMTP CONFIGURED: sign-in link written here instead of mailed (set SMTP_URL or SMTP_HOST to mail it)",
  );
}

/** What a budget alert says: the key, the threshold reached, where it stands and what happens next. */
export type BudgetAlertMail = {
  to: string | null;
  keyName: string;
  prefix: string;
  month: string;
  threshold: number;
  /** The budget and its use, already worded ("800 of 1,000 requests"). */
  usedText: string;
  hardStop: boolean;
  /** The portal page where the owner changes the budget. */
  url: string;
};

/** Mails a budget alert to the key's owner; without SMTP (or an owner's address) it goes to the log. */
export async function deliverBudgetAlert(mailer: Mailer, logger: Logger, a: BudgetAlertMail): Promise<void> {
  const what = a.threshold >= 100 ? "used up" : `${a.threshold}% used`;
  const share = a.threshold >= 100 ? "all" : `${a.threshold}%`;
  const next =
    a.threshold >= 100
      ? a.hardStop
        ? "Requests with this key are refused (429) until the month ends (UTC) or the budget is raised."
        : "Requests with this key still go through (the budget has no hard stop)."
      : "You will get one more mail when all of it is used.";
  const subject = `Budget ${what}: ${a.keyName} (${a.prefix}…), ${a.month}`;
  const text = `Your key ${a.keyName} (${a.prefix}…) has used ${share} of its monthly budget for ${a.month} (UTC): ${a.usedText}.\n\n${next}\n\nChange the budget: ${a.url}\n`;
  const sent = a.to
    ? await mailer.send({
        to: a.to,
        subject,
        text,
        html: `<p>Your key <strong>${escapeHtml(a.keyName)}</strong> (<code>${escapeHtml(a.prefix)}…</code>) has used ${share} of its monthly budget for ${a.month} (UTC): ${escapeHtml(a.usedText)}.</p><p>${next}</p><p><a href="${escapeHtml(a.url)}">Change the budget</a></p>`,
      })
    : false;
  if (!sent)
    logger.warn(
      { email: a.to, budgetAlert: subject },
      a.to
        ? "NO SMTP CONFIGURED: budget alert written here instead of mailed (set SMTP_URL or SMTP_HOST to mail it)"
        : "budget alert for a key without an owner's address: written here",
    );
}

function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
