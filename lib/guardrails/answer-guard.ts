// A model call's answer under its guardrail policy's answer stage: personal data and the policy's words
// in each text of the answer, and the answer's JSON against the policy's schema. A block replaces the
// answer with the surface's error (the pipeline's 422), a redaction masks what was found ([REDACTED_EMAIL],
// [REDACTED]), a flag changes nothing. The answer is read as the provider gave it, its prompt placeholders
// still in, so the caller's own values put back afterwards are not taken for the model's.
import type { GuardrailDecision } from "./decision.ts";
import { schemaFailure } from "./answer-schema.ts";
import { findPii, PII_KINDS, type PiiFinding, type PiiKind } from "./pii.ts";
import type { GuardrailPolicy } from "./policy.ts";
import { wordsFoundText, type WordFinding, type WordsFound } from "./words.ts";

/** What pii and words found in a text. */
export type AnswerFindings = { pii: PiiFinding[]; words: WordFinding[] };

/** What the answer stage found so far, by kind and count, and why the JSON failed its schema. */
export type AnswerTally = {
  pii: Partial<Record<PiiKind, number>>;
  words: WordsFound;
  schema?: string;
};

export const emptyTally = (): AnswerTally => ({ pii: {}, words: {} });

/** Whether a call's answer is checked: pii and words run on it, or its JSON meets a schema. */
export const checksAnswer = (policy: GuardrailPolicy) => policy.answer || policy.answerSchema !== undefined;

/** The findings of the policy's pii and words checks in `text`, when they run on the answer. */
export function findInAnswer(policy: GuardrailPolicy, text: string): AnswerFindings {
  if (!policy.answer) return { pii: [], words: [] };
  return {
    pii: policy.checks.includes("pii") ? findPii(text, policy.piiKinds) : [],
    words: policy.words?.(text) ?? [],
  };
}

export const foundAny = (f: AnswerFindings) => f.pii.length > 0 || f.words.length > 0;

export function count(tally: AnswerTally, f: AnswerFindings): void {
  for (const p of f.pii) tally.pii[p.kind] = (tally.pii[p.kind] ?? 0) + 1;
  for (const w of f.words) tally.words[w.kind] = (tally.words[w.kind] ?? 0) + 1;
}

/** Each finding with what masks it, in text order. */
export function masksOf(f: AnswerFindings): { start: number; end: number; mask: string }[] {
  return [
    ...f.pii.map((p) => ({ start: p.start, end: p.end, mask: `[REDACTED_${p.kind.toUpperCase()}]` })),
    ...f.words.map((w) => ({ start: w.start, end: w.end, mask: "[REDACTED]" })),
  ].sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * `text` with every finding masked, personal data by its kind ([REDACTED_EMAIL]) and words as
 * [REDACTED]; where two overlap, the one that starts first is masked whole. Not put back: unlike a
 * prompt's placeholders, these are values the caller never sent.
 */
export function maskAnswer(text: string, f: AnswerFindings): string {
  let out = "";
  let at = 0;
  for (const m of masksOf(f)) {
    if (m.start < at) continue;
    out += text.slice(at, m.start) + m.mask;
    at = m.end;
  }
  return out + text.slice(at);
}

/** The decisions a tally makes, and under a blocking policy the message the caller is refused with. */
export function answerDecisions(
  policy: GuardrailPolicy,
  tally: AnswerTally,
): { decisions: GuardrailDecision[]; refusal?: string } {
  const decisions: GuardrailDecision[] = [];
  const reasons: string[] = [];
  const at = { policy: policy.name, stage: "answer" as const };
  const kinds = PII_KINDS.filter((kind) => tally.pii[kind] !== undefined);
  if (kinds.length) {
    decisions.push({ ...at, check: "pii", action: policy.action, found: tally.pii });
    reasons.push(`the answer holds personal data (${kinds.join(", ").replaceAll("_", " ")})`);
  }
  const { term, pattern, profanity } = tally.words;
  if (term || pattern || profanity) {
    decisions.push({ ...at, check: "words", action: policy.action, found: tally.words });
    reasons.push(`the answer holds ${wordsFoundText(tally.words)}`);
  }
  if (tally.schema !== undefined) {
    // A JSON answer cannot be redacted into a valid one: under redact it is flagged.
    const action = policy.action === "redact" ? "flag" : policy.action;
    decisions.push({ ...at, check: "json_schema", action, found: { schema: 1 }, reason: tally.schema });
    reasons.push(`the answer does not match the policy's JSON schema (${tally.schema})`);
  }
  if (policy.action !== "block" || decisions.length === 0) return { decisions };
  return {
    decisions,
    refusal: `guardrails: ${reasons.join("; ")}, which the policy "${policy.name}" does not let through`,
  };
}

/** A text of the answer, and the answer it belongs to (a chat choice; the one message of the other surfaces). */
type Slot = { answer: string; read(): string; write(text: string): void };
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function slot(answer: string, holder: Json, field: string): Slot[] {
  return typeof holder[field] === "string"
    ? [{ answer, read: () => holder[field] as string, write: (t) => (holder[field] = t) }]
    : [];
}

/**
 * Every text of a model call's whole answer, in each surface's form: OpenAI chat's choices, Anthropic's
 * text blocks, Responses' output_text parts, the gateway's own `content`.
 */
function answerSlots(body: Json): Slot[] {
  if (Array.isArray(body.choices))
    return body.choices.flatMap((c: unknown) =>
      isObject(c) && isObject(c.message) ? slot(`c${String(c.index ?? 0)}`, c.message, "content") : [],
    );
  if (body.type === "message" && Array.isArray(body.content))
    return body.content.flatMap((b: unknown) => (isObject(b) && b.type === "text" ? slot("a", b, "text") : []));
  if (body.object === "response" && Array.isArray(body.output))
    return body.output.flatMap((item: unknown) =>
      isObject(item) && item.type === "message" && Array.isArray(item.content)
        ? item.content.flatMap((p: unknown) => (isObject(p) && p.type === "output_text" ? slot("r", p, "text") : []))
        : [],
    );
  if (typeof body.provider === "string") return slot("g", body, "content");
  return [];
}

/** What the answer stage decided on a whole answer: its decisions, a block's message, or the answer rewritten. */
export type AnswerGuard = { decisions: GuardrailDecision[]; refusal?: string; body?: string };

/** Checks a whole answer's JSON text; under a redacting policy `body` is the answer with what was found masked. */
export function guardAnswer(policy: GuardrailPolicy, json: string): AnswerGuard {
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    return { decisions: [] };
  }
  if (!isObject(body)) return { decisions: [] };
  const slots = answerSlots(body);
  const tally = emptyTally();
  // The JSON as the model wrote it, before anything is masked in it.
  if (policy.answerSchema) {
    const texts = new Map<string, string>();
    for (const s of slots) texts.set(s.answer, (texts.get(s.answer) ?? "") + s.read());
    for (const text of texts.values()) tally.schema ??= schemaFailure(policy.answerSchema, text);
  }
  let masked = false;
  for (const s of slots) {
    const found = findInAnswer(policy, s.read());
    if (!foundAny(found)) continue;
    count(tally, found);
    if (policy.action === "redact") {
      s.write(maskAnswer(s.read(), found));
      masked = true;
    }
  }
  const decided = answerDecisions(policy, tally);
  if (!masked) return decided;
  // Responses repeat the answer's text whole in `output_text`: it says what the parts now say.
  if (typeof body.output_text === "string") body.output_text = slots.map((s) => s.read()).join("");
  return { ...decided, body: JSON.stringify(body) };
}
