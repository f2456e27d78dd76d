import { PrismaAdapter } from "@next-auth/prisma-adapter";
import type { AuthOptions } from "next-auth";
import EmailProvider from "next-auth/providers/email";
import { getGateway } from "../../instance.ts";
import { isOperatorEmail, loadPortalConfig, type PortalConfig } from "../config.ts";
import { gitHubProvider, gitHubSignInAllowed } from "./github.ts";
import { oidcProvider, oidcSignInAllowed } from "./oidc.ts";
import { createMailer, deliverSignInLink, SIGN_IN_LINK_MAX_AGE_S, type Mailer } from "../mail.ts";
import { signInIdentifier } from "./address.ts";
import { domainOf } from "../../gateway/teams/team-changes.ts";
import { createSignInLimiter, type SignInLimiter } from "./limits.ts";

export type Portal = { config: PortalConfig; mailer: Mailer; authOptions: AuthOptions; signInLimiter: SignInLimiter };

type PortalGlobal = typeof globalThis & { __portal?: Promise<Portal> };

/**
 * The portal's sign-in setup, built once per process on the gateway's database handle (Next bundles
 * route handlers and pages separately; globalThis is what they share, as with getGateway()).
 */
const SIGN_IN_ERROR_PATH = "/sign-in/error";

export function getPortal(): Promise<Portal> {
  const g = globalThis as PortalGlobal;
  g.__portal ??= (async () => {
    const { rt } = await getGateway();
    const config = loadPortalConfig();
    // next-auth reads its public origin from NEXTAUTH_URL alone; without it every link would point at
    // localhost:3000. Never derived from the request's Host header, which a caller controls.
    process.env.NEXTAUTH_URL ??= config.url;
    const mailer = createMailer(config);
    const production = process.env.NODE_ENV === "production";
    const providers: AuthOptions["providers"] = [
      EmailProvider({
        // next-auth wants a server value; delivery is ours (SMTP or the log), so it is never used.
        server: "smtp://unused.invalid",
        from: config.emailFrom,
        maxAge: SIGN_IN_LINK_MAX_AGE_S,
        // next-auth's own default, held here so the link limit counts the very address mailed.
        normalizeIdentifier: signInIdentifier,
        sendVerificationRequest: ({ identifier, url }) =>
          deliverSignInLink(mailer, rt.logger, identifier, url, production && isOperatorEmail(config, identifier)),
      }),
    ];
    if (config.github) providers.push(gitHubProvider(config.github));
    if (config.oidc) providers.push(oidcProvider(config.oidc));
    const authOptions: AuthOptions = {
      // The adapter is typed against @prisma/client's default output; ours is generated into lib/db.
      adapter: PrismaAdapter(rt.db.prisma as never),
      providers,
      secret: config.secret,
      session: { strategy: "database", maxAge: 30 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
      // The portal's own pages (app/sign-in, app/sign-out), in its look and saying why sign-in was asked.
      pages: {
        signIn: "/sign-in",
        verifyRequest: "/sign-in/verify-request",
        error: SIGN_IN_ERROR_PATH,
        signOut: "/sign-out",
      },
      callbacks: {
        // Email links prove their address; a GitHub or OIDC address counts only when the provider says it
        // is verified. ADMIN_EMAILS therefore only ever matches addresses someone has shown they own.
        // An address at a domain whose organisation requires its OpenID Connect provider signs in only
        // through it: an email link is not even sent.
        signIn: async ({ user, account, profile }) => {
          const allowed = gitHubSignInAllowed(user, account, profile) && oidcSignInAllowed(user, account, profile);
          if (!allowed) {
            rt.logger.warn(
              { provider: account?.provider },
              "sign-in refused: the account's email is not verified by its provider",
            );
            return false;
          }
          if (account?.provider !== "oidc" && (await domainOf(rt.db, user.email))?.requireSso) {
            rt.logger.warn(
              { provider: account?.provider },
              "sign-in refused: the address's organisation requires OIDC",
            );
            return `${SIGN_IN_ERROR_PATH}?error=SsoRequired`;
          }
          return true;
        },
        session: ({ session, user }) => ({
          ...session,
          user: { ...session.user, id: user.id, operator: isOperatorEmail(config, user.email) },
        }),
      },
      events: {
        // Signing out ends console access on this instance at once; other instances within the bridge's TTL.
        signOut: ({ session }) => {
          const token = (session as { sessionToken?: string } | undefined)?.sessionToken;
          if (token) rt.sessions.forget(token);
        },
      },
      logger: {
        error: (code, metadata) => rt.logger.error({ code, metadata }, "sign-in error"),
        warn: (code) => rt.logger.warn({ code }, "sign-in warning"),
        debug: () => {},
      },
    };
    return { config, mailer, authOptions, signInLimiter: createSignInLimiter() };
  })();
  return g.__portal;
}
