import type { Account, Profile, User } from "next-auth";
import GitHubProvider from "next-auth/providers/github";
import { z } from "zod";
import { CallStop } from "../../upstream/call-stop.ts";
import { readCappedText } from "../../upstream/capped-body.ts";
import { upstreamOrigin } from "../../upstream/origin.ts";

// A user and their addresses are a few kB; anything near this is not GitHub.
const GITHUB_MAX_BYTES = 1024 * 1024;

// GET /user/emails, GitHub's documented shape; capped, since a user has a handful at most.
const emailsSchema = z
  .array(z.object({ email: z.string().max(320), primary: z.boolean(), verified: z.boolean() }))
  .max(100);
const userSchema = z
  .object({
    id: z.number(),
    login: z.string(),
    name: z.string().nullish(),
    email: z.string().nullish(),
    avatar_url: z.string().nullish(),
  })
  .passthrough();

/** GitHub's user, with the email next-auth should store: one GitHub reports as verified, or none. */
export type GitHubProfile = z.infer<typeof userSchema> & { email: string | null; verified_emails: string[] };

/**
 * The address a GitHub sign-in may carry: the profile's own when GitHub has verified it, else the
 * primary verified one, else none. GitHub lets an account hold addresses nobody has proven to own;
 * storing one would let its claimant pass as that address's owner (operator rights included).
 */
export function verifiedGitHubEmail(
  profileEmail: string | null | undefined,
  emails: z.infer<typeof emailsSchema>,
): { email: string | null; verified: string[] } {
  const verified = emails.filter((e) => e.verified).map((e) => e.email.toLowerCase());
  const own = profileEmail?.toLowerCase();
  const primary = emails.find((e) => e.primary && e.verified)?.email.toLowerCase();
  return { email: own && verified.includes(own) ? own : (primary ?? verified[0] ?? null), verified };
}

/** Reads the signed-in GitHub user and their addresses from GitHub's API (or UPSTREAM_GITHUB_URL). */
export async function fetchGitHubProfile(
  accessToken: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<GitHubProfile> {
  const api = upstreamOrigin("github", "https://api.github.com", env);
  const get = async (path: string) => {
    const res = await fetch(`${api}${path}`, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: "application/vnd.github+json",
        "user-agent": "api-gateway-portal",
      },
      signal: new CallStop(10_000).signal,
    });
    if (!res.ok) throw new Error(`GitHub ${path} answered ${res.status}`);
    return JSON.parse(await readCappedText(res, "github", GITHUB_MAX_BYTES)) as unknown;
  };
  const [user, emails] = await Promise.all([
    get("/user").then((u) => userSchema.parse(u)),
    get("/user/emails").then((e) => emailsSchema.parse(e)),
  ]);
  const { email, verified } = verifiedGitHubEmail(user.email, emails);
  return { ...user, email, verified_emails: verified };
}

/**
 * A GitHub sign-in is let in only with an address GitHub reports as verified (or with none): for a
 * returning user that is the address stored at their first sign-in, checked again each time.
 */
export function gitHubSignInAllowed(
  user: Pick<User, "email">,
  account: Pick<Account, "provider"> | null,
  profile: Profile | undefined,
): boolean {
  if (account?.provider !== "github") return true;
  const verified = (profile as Partial<GitHubProfile> | undefined)?.verified_emails ?? [];
  return !user.email || verified.includes(user.email.toLowerCase());
}

/** next-auth's GitHub provider, on GitHub's origins or UPSTREAM_GITHUB_OAUTH_URL / UPSTREAM_GITHUB_URL, keeping only verified email. */
export function gitHubProvider(
  credentials: { clientId: string; clientSecret: string },
  env: NodeJS.ProcessEnv = process.env,
) {
  const oauth = upstreamOrigin("github_oauth", "https://github.com", env);
  const api = upstreamOrigin("github", "https://api.github.com", env);
  return GitHubProvider({
    ...credentials,
    authorization: { url: `${oauth}/login/oauth/authorize`, params: { scope: "read:user user:email" } },
    token: `${oauth}/login/oauth/access_token`,
    userinfo: {
      url: `${api}/user`,
      request: ({ tokens }) => fetchGitHubProfile(tokens.access_token!, env) as never,
    },
  });
}
