import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * A checker for one shared secret (a bearer token). It compares SHA-256 digests with timingSafeEqual:
 * equal-length inputs whatever was sent, so the time taken reveals neither the secret's content nor
 * its length. The secret's digest is computed once.
 */
export function secretMatcher(secret: string): (given: string | undefined) => boolean {
  const expected = digest(secret);
  return (given) => given !== undefined && timingSafeEqual(digest(given), expected);
}
