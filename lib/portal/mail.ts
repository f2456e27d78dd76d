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

function escapeHtml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
