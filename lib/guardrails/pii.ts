// The personal-data check: finds emails, phone numbers, payment cards, IBANs, national ids, IP addresses
// and secrets in text, each candidate confirmed by the rule its kind has (Luhn for cards, mod 97 for
// IBANs, the issuing rules of SSNs and National Insurance numbers, a parser for IPs, a known prefix or
// enough entropy for secrets), so order numbers, versions, dates, hashes and placeholders stay as they
// are. Every pattern is bounded (no nested open-ended repeats), so a hostile text costs linear time.
import net from "node:net";

export const PII_KINDS = ["email", "phone", "card", "iban", "national_id", "ip", "secret"] as const;
export type PiiKind = (typeof PII_KINDS)[number];

export type PiiFinding = { kind: PiiKind; start: number; end: number; value: string };

type Rule = { kind: PiiKind; pattern: RegExp; valid?: (match: RegExpExecArray) => boolean; group?: number };

const digitsOf = (text: string) => text.replace(/\D/g, "");

/** The Luhn checksum payment cards (and Canadian SINs) carry. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1 && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** The ISO 13616 check: the IBAN, its first four characters moved to the end, as a number mod 97 is 1. */
export function ibanValid(iban: string): boolean {
  const compact = iban.replace(/ /g, "").toUpperCase();
  if (compact.length < 15 || compact.length > 34) return false;
  let rest = 0;
  for (const ch of compact.slice(4) + compact.slice(0, 4)) {
    const value = ch >= "A" ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    rest = value > 9 ? (rest * 100 + value) % 97 : (rest * 10 + value) % 97;
  }
  return rest === 1;
}

/** Bits per character: a random token scores high, words and repeated characters low. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

/** A value that reads as a secret: long, random, and not one of the hex or id forms hashes and UUIDs take. */
function randomToken(value: string): boolean {
  if (/^[0-9a-f]+$/i.test(value) || /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(value)) return false;
  // A name in code (process.env.OPENAI_API_KEY, config.token) or an environment variable's name.
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) || /^[A-Z][A-Z0-9_]+$/.test(value)) return false;
  const letters = /[a-z]/.test(value) || /[A-Z]/.test(value);
  return (
    letters &&
    /\d/.test(value) &&
    entropy(value) >= 3.5 &&
    !/^(?:your|my|the|example|placeholder|changeme)/i.test(value)
  );
}

/** The lengths each card issuer's numbers have, by their first digits. */
function cardLength(digits: string): boolean {
  const n = digits.length;
  if (digits.startsWith("4")) return n === 13 || n === 16 || n === 19;
  if (/^3[47]/.test(digits)) return n === 15;
  if (/^(?:5[1-5]|2[2-7])/.test(digits)) return n === 16;
  if (/^3[068]/.test(digits)) return n >= 14 && n <= 19;
  return n >= 16 && n <= 19;
}

// In order of precedence: where two findings overlap, the earlier rule's stands.
const RULES: Rule[] = [
  // Secrets by their issuers' prefixes, then a long random value assigned to a key, token, secret or password.
  {
    kind: "secret",
    pattern:
      /\b(?:sk-(?:proj-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{20,200}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36,100}|github_pat_[A-Za-z0-9_]{40,120}|xox[abprs]-[A-Za-z0-9-]{10,200}|AIza[0-9A-Za-z_-]{35}|[rs]k_live_[0-9A-Za-z]{20,100}|glpat-[A-Za-z0-9_-]{20,60}|eyJ[A-Za-z0-9_-]{10,2000}\.eyJ[A-Za-z0-9_-]{10,4000}\.[A-Za-z0-9_-]{10,1000})/g,
  },
  { kind: "secret", pattern: /-----BEGIN (?:[A-Z]{1,10} )?PRIVATE KEY-----/g },
  {
    kind: "secret",
    pattern: /\b(?:api[_-]?key|token|secret|password|passwd)["']?\s{0,3}[:=]\s{0,3}["']?([A-Za-z0-9+/_.-]{20,200})/gi,
    group: 1,
    valid: (m) => randomToken(m[1]!),
  },
  {
    kind: "email",
    pattern: /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}\b/g,
  },
  {
    kind: "iban",
    pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g,
    valid: (m) => ibanValid(m[0]),
  },
  {
    kind: "card",
    // Issuers' first digits (Visa, Mastercard, Amex, Discover, JCB, Diners), 13 to 19 digits in groups.
    pattern: /\b(?:4|5[1-5]|2[2-7]|3[47]|3[068]|6)\d{1,3}(?:[ -]?\d{1,4}){2,5}\b/g,
    valid: (m) => {
      const digits = digitsOf(m[0]);
      return cardLength(digits) && luhn(digits);
    },
  },
  // US Social Security numbers as the SSA issues them; UK National Insurance numbers; Canadian SINs.
  { kind: "national_id", pattern: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g },
  {
    kind: "national_id",
    pattern: /\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g,
  },
  { kind: "national_id", pattern: /\b\d{3}[ -]\d{3}[ -]\d{3}\b/g, valid: (m) => luhn(digitsOf(m[0])) },
  {
    kind: "ip",
    pattern: /\b(?:\d{1,3}\.){3}\d{1,3}\b/g,
    // Not the tail of a longer dotted number (a version 1.2.3.4.5).
    valid: (m) => net.isIPv4(m[0]) && m.input[m.index + m[0].length] !== "." && m.input[m.index - 1] !== ".",
  },
  {
    kind: "ip",
    // The lookahead lets a match start only where a colon follows within four hex digits.
    pattern: /(?<![\w:])(?=[0-9A-Fa-f]{0,4}:)[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])/g,
    valid: (m) => net.isIPv6(m[0]),
  },
  {
    kind: "phone",
    // International (+ and 8 to 15 digits) and North American forms.
    pattern:
      /(?<![\w+])(?:\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,6}|\(\d{3}\) ?\d{3}[-. ]\d{4}|\d{3}[-.]\d{3}[-.]\d{4})(?!\w)/g,
    valid: (m) => {
      const n = digitsOf(m[0]).length;
      return n >= 8 && n <= 15;
    },
  },
];

/** The index of the first finding that ends after `start` in `found` (disjoint, in text order). */
function firstEndingAfter(found: readonly PiiFinding[], start: number): number {
  let lo = 0;
  let hi = found.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (found[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every finding of the given kinds (default: all), in text order, none overlapping another. */
export function findPii(text: string, kinds: ReadonlySet<PiiKind> = new Set(PII_KINDS)): PiiFinding[] {
  // Disjoint and in text order at every step, so an overlap is one binary search away.
  const found: PiiFinding[] = [];
  for (const rule of RULES) {
    if (!kinds.has(rule.kind)) continue;
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      if (rule.valid && !rule.valid(m)) continue;
      const value = rule.group === undefined ? m[0] : m[rule.group]!;
      const start = m.index + (rule.group === undefined ? 0 : m[0].lastIndexOf(value));
      const end = start + value.length;
      const at = firstEndingAfter(found, start);
      if (at < found.length && found[at]!.start < end) continue;
      found.splice(at, 0, { kind: rule.kind, start, end, value });
    }
  }
  return found;
}
