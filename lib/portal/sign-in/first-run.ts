import { createHash, randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { Database } from "../../db/database.ts";
import { loadPortalConfig, type PortalConfig } from "../config.ts";

/** How long the first-run link works, unless the next start replaces it sooner. */
export const FIRST_RUN_LINK_HOURS = 24;

export type FirstRunLink = { email: string; url: string; expires: Date };

/** How next-auth 4 stores an email sign-in token (its hashToken): sha256 of the token followed by the secret. */
export function hashSignInToken(token: string, secret: string): string {
  return createHash("sha256").update(`${token}${secret}`).digest("hex");
}

/**
 * The operator's way in on the embedded default, where no mail carries a sign-in link and operators'
 * links are kept out of the production log: while no operator has ever signed in, a sign-in link for
 * the first operator address (ADMIN_EMAILS, else the local operator), stored as next-auth stores an
 * emailed one, so next-auth's own callback signs it in and spends it. It works once, for
 * FIRST_RUN_LINK_HOURS, and each start replaces the last one's. Null with SMTP (the operator asks for
 * a link like anyone), on PostgreSQL (instances sharing it would each print a link and void the
 * others'), and once an operator has signed in by any means.
 */
export async function firstRunLink(db: Database, config: PortalConfig, now = new Date()): Promise<FirstRunLink | null> {
  const operators = [...config.adminEmails];
  const email = operators[0];
  if (db.kind !== "pglite" || config.smtp !== null || !email) return null;
  // Signed in: an email link sets emailVerified, a GitHub sign-in links an account.
  const signedIn = await db.prisma.user.count({
    where: {
      OR: operators.map((address) => ({ email: { equals: address, mode: "insensitive" as const } })),
      AND: { OR: [{ emailVerified: { not: null } }, { accounts: { some: {} } }] },
    },
  });
  if (signedIn > 0) return null;
  const token = randomBytes(32).toString("hex");
  const expires = new Date(now.getTime() + FIRST_RUN_LINK_HOURS * 3_600_000);
  await db.prisma.$transaction([
    // The previous start's link stops working (and any link asked for this address, never delivered).
    db.prisma.verificationToken.deleteMany({ where: { identifier: email } }),
    db.prisma.verificationToken.create({
      data: { identifier: email, token: hashSignInToken(token, config.secret), expires },
    }),
  ]);
  const query = new URLSearchParams({ callbackUrl: `${config.url}/admin`, token, email });
  return { email, url: `${config.url}/api/auth/callback/email?${query}`, expires };
}

/** At start (once NEXTAUTH_URL is known): prints the first-run link when there is one to print. */
export async function announceFirstRunLink(db: Database, logger: Logger): Promise<void> {
  try {
    const link = await firstRunLink(db, loadPortalConfig());
    if (!link) return;
    logger.warn(
      { operator: link.email, operatorSignInLink: link.url, expires: link.expires.toISOString() },
      `FIRST START: no operator has signed in and no SMTP is set. Open operatorSignInLink to sign in as the operator (${link.email}); it works once, for ${FIRST_RUN_LINK_HOURS} h or until the next start`,
    );
  } catch (err) {
    logger.error({ err }, "the first-run operator sign-in link could not be made");
  }
}
