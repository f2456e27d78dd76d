// Prompt-injection heuristics: signs that a text tries to take over the model it is given to, each a
// weight, combined into a score from 0 to 1. Signs: an order to drop earlier instructions, a
// counterfeit role or chat-template marker, a request for the hidden prompt, text hidden from a
// reader (zero-width and bidirectional controls, Unicode tag characters), and an encoded payload that
// decodes to such orders. A sign inside a quotation that a report attributes ("…", he said) weighs less:
// an article about injections is not one. Patterns are bounded, so a hostile text costs linear time.

export const INJECTION_SIGNALS = ["override", "role", "reveal", "hidden", "encoded"] as const;
export type InjectionSignal = (typeof INJECTION_SIGNALS)[number];

export type InjectionResult = { score: number; signals: Partial<Record<InjectionSignal, number>> };

const WEIGHT: Record<InjectionSignal, number> = { override: 0.75, role: 0.6, reveal: 0.55, hidden: 0.6, encoded: 0.65 };
const ROLE_LINE_WEIGHT = 0.35;

/** The score at or above which the check fires unless a policy sets its own. */
export const DEFAULT_INJECTION_THRESHOLD = 0.5;

const OVERRIDE =
  /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)?(?:(?:previous|prior|above|earlier|preceding|former|original|system|safety|developer)\s+){1,2}(?:instructions?|prompts?|rules|directions|guidelines|guardrails|messages?|context|constraints)\b/gi;
const NEW_RULES =
  /\b(?:from now on|henceforth|starting now),?\s+(?:you (?:are|will|must)|act as|respond only|only answer)\b|\byou are now (?:in )?(?:dan|developer mode|jailbroken|unrestricted|an? unfiltered)\b/gi;
/** A line that claims to be another role's message: weak alone (a YAML key can look like it). */
const ROLE_LINE =
  /(?:^|\n)[ \t]{0,8}(?:#{1,4}[ \t]{0,4})?(?:system|assistant|developer)[ \t]{0,4}(?:message[ \t]{0,4})?:[ \t]/gi;
/** A chat template's own markers, which no prompt needs to contain. */
const ROLE_TOKEN = /<\|(?:im_start|im_end|system|endoftext|start_header_id)\|>|\[\/?INST\]|<<\/?SYS>>/gi;
const REVEAL =
  /\b(?:reveal|print|show|repeat|output|leak|dump|display)\s+(?:me\s+)?(?:your\s+(?:full\s+|entire\s+|exact\s+|hidden\s+|original\s+|initial\s+)?(?:system\s+prompt|instructions|prompt|rules)|the\s+(?:full\s+|entire\s+|exact\s+)?(?:system\s+prompt|hidden\s+prompt|initial\s+prompt|developer\s+message|system\s+instructions))\b/gi;
// Zero-width and joiner characters, bidirectional overrides and isolates, and Unicode tag characters.
const HIDDEN = /[\u200B-\u200F\u2060-\u2064\u202A-\u202E\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;
const BASE64 = /[A-Za-z0-9+/]{40,4096}={0,2}/g;
/** Quotation marks a report puts around what someone else wrote. */
const QUOTE = /["“”«»„]/;
const ATTRIBUTION =
  /\b(?:said|says|wrote|writes|reported|according to|researchers?|attackers?|example|for instance|such as|called|known as)\b/i;

function countMatches(re: RegExp, text: string, quoted: (at: number) => boolean): { plain: number; quoted: number } {
  let plain = 0;
  let inQuotes = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (quoted(m.index)) inQuotes++;
    else plain++;
    if (m[0].length === 0) re.lastIndex++;
  }
  return { plain, quoted: inQuotes };
}

/** Whether the match at `at` sits inside a quotation on a line that attributes it to someone. */
function quotedReport(text: string): (at: number) => boolean {
  if (!ATTRIBUTION.test(text)) return () => false;
  return (at) => {
    const lineStart = text.lastIndexOf("\n", at) + 1;
    const before = text.slice(Math.max(lineStart, at - 200), at);
    let marks = 0;
    for (let i = 0; i < before.length; i++) {
      const c = before[i]!;
      // A straight single quote counts unless it sits between two letters, as an apostrophe does.
      if (QUOTE.test(c) || (c === "'" && !(/\p{L}/u.test(before[i - 1] ?? "") && /\p{L}/u.test(before[i + 1] ?? ""))))
        marks++;
    }
    // An odd count of quotation marks before it on its line: the match is inside a quotation.
    return marks % 2 === 1;
  };
}

function decodedOrders(text: string): number {
  let found = 0;
  BASE64.lastIndex = 0;
  for (let m = BASE64.exec(text); m && found < 3; m = BASE64.exec(text)) {
    const decoded = Buffer.from(m[0], "base64").toString("utf8");
    // Mostly printable text that, decoded, carries an order the other signs look for.
    const printable = decoded.replace(/[^\x20-\x7E\n]/g, "").length / Math.max(1, decoded.length);
    if (printable < 0.9) continue;
    OVERRIDE.lastIndex = 0;
    REVEAL.lastIndex = 0;
    if (OVERRIDE.test(decoded) || REVEAL.test(decoded)) found++;
  }
  return found;
}

/** The injection score of `text` and the signs behind it (how many of each). */
export function scoreInjection(text: string): InjectionResult {
  const quoted = quotedReport(text);
  const signals: Partial<Record<InjectionSignal, number>> = {};
  let keep = 1;
  const add = (signal: InjectionSignal, plain: number, inQuotes: number, full = WEIGHT[signal]) => {
    if (plain + inQuotes === 0) return;
    signals[signal] = (signals[signal] ?? 0) + plain + inQuotes;
    // A quoted, attributed sign counts for a fifth of its weight: a report of an attack, not one.
    keep *= 1 - (plain > 0 ? full : full * 0.2);
  };
  const override = countMatches(OVERRIDE, text, quoted);
  const rules = countMatches(NEW_RULES, text, quoted);
  add("override", override.plain + rules.plain, override.quoted + rules.quoted);
  const token = countMatches(ROLE_TOKEN, text, quoted);
  add("role", token.plain, token.quoted);
  const line = countMatches(ROLE_LINE, text, quoted);
  add("role", line.plain, line.quoted, ROLE_LINE_WEIGHT);
  const reveal = countMatches(REVEAL, text, quoted);
  add("reveal", reveal.plain, reveal.quoted);
  HIDDEN.lastIndex = 0;
  const hidden = text.match(HIDDEN)?.length ?? 0;
  // One stray zero-width space is common in pasted text; several hide something.
  if (hidden >= 3) add("hidden", hidden, 0);
  add("encoded", decodedOrders(text), 0);
  return { score: Math.round((1 - keep) * 100) / 100, signals };
}
