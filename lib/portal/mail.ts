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

/** Whose budget an alert is about: a key, or a level above keys (an account, a team, an organisation). */
export type BudgetAlertSubject =
  | { kind: "key"; name: string; prefix: string }
  | { kind: "level"; level: "user" | "team" | "organisation"; name: string };

/** What a budget alert says: whose budget, the threshold reached, where it stands and what happens next. */
export type BudgetAlertMail = {
  to: string | null;
  subject: BudgetAlertSubject;
  month: string;
  threshold: number;
  /** The budget and its use, already worded ("800 of 1,000 requests"). */
  usedText: string;
  hardStop: boolean;
  /** The portal page where the budget is seen (and a key's changed). */
  url: string;
};

/** Mails a budget alert to the key's owner or a level's people; without SMTP (or an address) it goes to the log. */
export async function deliverBudgetAlert(mailer: Mailer, logger: Logger, a: BudgetAlertMail): Promise<void> {
  const what = a.threshold >= 100 ? "used up" : `${a.threshold}% used`;
  const share = a.threshold >= 100 ? "all" : `${a.threshold}%`;
  const s = a.subject;
  const keys = s.kind === "key" ? "this key" : s.level === "user" ? "your keys" : `the ${s.level}'s keys`;
  const next =
    a.threshold >= 100
      ? a.hardStop
        ? `Requests with ${keys} are refused (429) until the month ends (UTC) or the budget is raised.`
        : `Requests with ${keys} still go through (the budget has no hard stop).`
      : "You will get one more mail when all of it is used.";
  const title =
    s.kind === "key" ? `${s.name} (${s.prefix}…)` : s.level === "user" ? "your account" : `${s.level} ${s.name}`;
  // The sentence naming whose budget it is, as text (plain) or HTML (names emphasised, escaped).
  const who = (strong: (t: string) => string, code: (t: string) => string) =>
    s.kind === "key"
      ? `Your key ${strong(s.name)} (${code(s.prefix)}…) has used ${share} of its monthly budget`
      : s.level === "user"
        ? `Your account has used ${share} of its monthly budget across your keys`
        : `The ${s.level} ${strong(s.name)} has used ${share} of its monthly budget across its keys`;
  const plain = (t: string) => t;
  const change = s.kind === "key" ? "Change the budget" : "See the usage";
  const subject = `Budget ${what}: ${title}, ${a.month}`;
  const text = `${who(plain, plain)} for ${a.month} (UTC): ${a.usedText}.\n\n${next}\n\n${change}: ${a.url}\n`;
  const sent = a.to
    ? await mailer.send({
        to: a.to,
        subject,
        text,
        html: `<p>${who(
          (t) => `<strong>${escapeHtml(t)}</strong>`,
          (t) => `<code>${escapeHtml(t)}</code>`,
        )} for ${a.month} (UTC): ${escapeHtml(a.usedText)}.</p><p>${next}</p><p><a href="${escapeHtml(a.url)}">${change}</a></p>`,
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
