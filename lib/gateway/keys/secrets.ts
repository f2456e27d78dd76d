import { hash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PREFIX = "sk_";
// 32 random bytes are 256 bits; 43 base62 digits hold 256.03 bits, so every value fits.
const KEY_DIGITS = 43;
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

export function encodeBase62(bytes: Uint8Array, digits: number): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);
  let out = "";
  for (let i = 0; i < digits; i++) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

export type NewKey = { key: string; hash: string; prefix: string };

/** A fresh secret key: `sk_` + 32 random bytes in base62. Only its hash and display prefix are stored. */
export function generateKey(): NewKey {
  const key = KEY_PREFIX + encodeBase62(randomBytes(32), KEY_DIGITS);
  return { key, hash: hashKey(key), prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

// Every keyed request hashes its key; the one-shot form is ~3x cheaper than createHash().update().digest().
export function hashKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** Cheap shape check so random strings never reach the cache or the database. */
export function looksLikeKey(value: string): boolean {
  return (
    value.length === KEY_PREFIX.length + KEY_DIGITS &&
    value.startsWith(KEY_PREFIX) &&
    /^[0-9A-Za-z]+$/.test(value.slice(3))
  );
}
