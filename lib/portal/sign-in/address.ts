/** The longest address a sign-in link is sent to (RFC 5321's path limit): longer input is refused, not cut. */
export const MAX_SIGN_IN_ADDRESS = 320;

/**
 * The address a sign-in link for `identifier` goes to, or null when it is refused. This is next-auth
 * 4.24's default `normalizeIdentifier` (core/routes/signin.js), passed to the email provider as its
 * normaliser so the link limit (limits.ts) counts exactly the address that is mailed: NFKC,
 * trimmed, lowercased, one `@`, no quotes, the domain cut at its first comma and holding a dot.
 */
export function normalizeSignInAddress(identifier: string): string | null {
  const trimmed = identifier.normalize("NFKC").trim();
  if ((trimmed.match(/@/g) ?? []).length !== 1 || trimmed.includes('"')) return null;
  const [local, rawDomain] = trimmed.toLowerCase().split("@") as [string, string];
  const domain = rawDomain.split(",")[0]!;
  if (!local || !domain || !domain.includes(".")) return null;
  const address = `${local}@${domain}`;
  return address.length <= MAX_SIGN_IN_ADDRESS ? address : null;
}

/** The email provider's normaliser: next-auth answers a throw with its sign-in error page, sending nothing. */
export function signInIdentifier(identifier: string): string {
  const address = normalizeSignInAddress(identifier);
  if (address === null) throw new Error("Invalid email address format.");
  return address;
}

/**
 * The `email` field of a sign-in request's body, read as next-auth 4.24 reads it (next/utils.js getBody):
 * JSON when the content type mentions application/json, else URL-encoded when it mentions
 * application/x-www-form-urlencoded (the last of repeated fields wins), else no body. Reading it any
 * other way (multipart, the first of repeated fields) would count one address and let next-auth mail another.
 */
export async function signInEmailField(request: Request): Promise<string | null> {
  const type = request.headers.get("content-type") ?? "";
  try {
    let body: unknown;
    if (type.includes("application/json")) body = await request.clone().json();
    else if (type.includes("application/x-www-form-urlencoded"))
      body = Object.fromEntries(new URLSearchParams(await request.clone().text()));
    const email = (body as { email?: unknown } | null | undefined)?.email;
    return typeof email === "string" ? email : null;
  } catch {
    // A body next-auth cannot parse either: it refuses the request itself.
    return null;
  }
}
