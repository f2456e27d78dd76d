import type { Account, Profile, User } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { OidcSettings } from "../config.ts";

/** The ID token claims sign-in reads (OpenID Connect Core, standard claims). */
export type OidcProfile = { sub: string; email?: string; email_verified?: boolean; name?: string };

/** The address an ID token proves: its email when the provider says it is verified, else none. */
export function verifiedOidcEmail(profile: Pick<OidcProfile, "email" | "email_verified">): string | null {
  return profile.email && profile.email_verified === true ? profile.email.toLowerCase() : null;
}

/**
 * A company's OpenID Connect provider (OIDC_ISSUER, found by discovery), as next-auth's OAuth provider
 * with PKCE and state, the profile read from the ID token (signature, issuer, audience and expiry checked
 * by openid-client). Only a verified address is stored, so ADMIN_EMAILS matches proven addresses only.
 */
export function oidcProvider(settings: OidcSettings): OAuthConfig<OidcProfile> {
  return {
    id: "oidc",
    name: settings.name,
    type: "oauth",
    wellKnown: `${settings.issuer}/.well-known/openid-configuration`,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    profile: (p) => ({ id: p.sub, name: p.name ?? null, email: verifiedOidcEmail(p), image: null }),
  };
}

/**
 * An OIDC sign-in is let in with an address the provider reports as verified (or with none): for a
 * returning user, the address stored at their first sign-in, checked again each time.
 */
export function oidcSignInAllowed(
  user: Pick<User, "email">,
  account: Pick<Account, "provider"> | null,
  profile: Profile | undefined,
): boolean {
  if (account?.provider !== "oidc") return true;
  return !user.email || verifiedOidcEmail((profile ?? {}) as OidcProfile) === user.email.toLowerCase();
}
