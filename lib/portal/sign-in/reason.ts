/**
 * Why a page asked the visitor to sign in, read from where sign-in will bring them back (next-auth's
 * `callbackUrl`, relative or absolute). Only the path counts: the words are ours, never the URL's.
 */
const REASONS: [prefix: string, reason: string][] = [
  ["/keys/request", "Requesting an API key needs an account: the key is issued to you, and the decision reaches you."],
  ["/keys", "Your API keys belong to your account: sign in to see, copy, rotate or revoke them, or to request one."],
  ["/usage/requests", "The request log shows the calls made with your keys, so it is only shown to you."],
  ["/usage", "The usage dashboard counts the calls made with your keys, so it is only shown to you."],
  ["/teams/join", "An invitation to a team is accepted by the address it was sent to: sign in with it."],
  ["/teams", "Your teams show their members, keys and usage to the people in them: sign in to see yours."],
  ["/admin", "The operator pages are open to the addresses the operator listed (ADMIN_EMAILS): sign in with yours."],
  ["/console", "The consoles call the API as you, counted against your account's console limits."],
];

export function signInReason(callbackUrl: string | undefined): string | null {
  if (!callbackUrl) return null;
  let path: string;
  try {
    path = new URL(callbackUrl, "http://portal.invalid").pathname;
  } catch {
    return null;
  }
  const match = REASONS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`));
  return match?.[1] ?? null;
}

/** The sign-in page's address for a page that needs a signed-in visitor. */
export function signInPath(returnTo: string): string {
  return `/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`;
}

/** What next-auth's error codes mean to the person who met them (its own codes, as ?error=). */
const ERRORS: Record<string, string> = {
  Verification: "That sign-in link no longer works: each link works once, for 15 minutes. Ask for a new one below.",
  EmailSignin: "The sign-in link could not be sent. Check the address and try again in a minute.",
  AccessDenied:
    "This account cannot sign in: GitHub does not report its email address as verified. Verify it on GitHub, or sign in by email.",
  OAuthSignin: "GitHub sign-in could not start. Try again, or sign in by email.",
  OAuthCallback: "GitHub sign-in did not complete. Try again, or sign in by email.",
  OAuthAccountNotLinked: "That address already signs in another way. Sign in by email with it.",
  SessionRequired: "Sign in to see that page.",
  // Ours: a signIn callback's refusal for an address at a domain whose organisation requires its provider.
  SsoRequired:
    "Your organisation requires its single sign-on for addresses at its domain: sign in with the single sign-on button instead.",
  Configuration: "Sign-in is not set up correctly on this server. The operator can find the reason in its log.",
};

export function signInError(code: string | undefined): string | null {
  if (!code) return null;
  return ERRORS[code] ?? "Sign-in did not work. Try again.";
}
