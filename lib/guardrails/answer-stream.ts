// A streamed answer under its guardrail policy's answer stage, checked as its events go out, in every
// surface's stream (stream-delta.ts reads where the text is). Under block, each delta is checked with the
// tail of the text before it (a match may span deltas), and the first that fires is not sent: the stream
// ends with the surface's error event instead, and the provider is stopped. Under redact, the end of each
// text is held back, so a match a provider split over deltas is masked before any of it goes out. Under
// flag nothing changes. Each answer's whole text is checked as it ends (a match longer than the window; the
// JSON against the policy's schema): a block there sends the error event in place of the answer's last.
import type { EventSource } from "../gateway/http/event-stream.ts";
import {
  answerDecisions,
  count,
  emptyTally,
  findInAnswer,
  foundAny,
  maskAnswer,
  masksOf,
  type AnswerFindings,
  type AnswerTally,
} from "./answer-guard.ts";
import { schemaFailure } from "./answer-schema.ts";
import type { GuardrailDecision } from "./decision.ts";
import type { GuardrailPolicy } from "./policy.ts";
import { answerEndOf, deltaOf, frame, type Delta, type Surface } from "./stream-delta.ts";

/** How much of a text before a delta is checked with it: longer than the personal data and words it looks for. */
const WINDOW = 256;
/** Under redact, how much of a text's end is held back, for a match a later delta may complete... */
const HOLD = 64;
/** ...and how long a run with no space may be held, for a long value (a key, a token) to end first. */
const MAX_HOLD = 1024;

/** Told of what the answer stage decided: an answer's decisions as it ends (or is blocked), and a block's message. */
export type AnswerReport = (decisions: GuardrailDecision[], refusal?: string) => void;

/**
 * A text of the answer: its deltas so far (joined once, as it ends: a string grown delta by delta and
 * sliced each time would be copied whole each time), its last WINDOW characters, what is held back of it,
 * and its last delta event (to send what is held as one of its own).
 */
type Text = { answer: string; parts: string[]; tail: string; held: string; last: Delta; lines: string[] };

/** `tail` cut where a word starts once it is a full window, so no word is checked from its middle. */
function fromWordStart(tail: string): string {
  if (tail.length < WINDOW) return tail;
  const space = tail.slice(0, 64).search(/\s/);
  return space < 0 ? tail : tail.slice(space + 1);
}

/** How much of a held text may go out now: up to a space at least HOLD characters before its end. */
function releasable(text: string): number {
  if (text.length <= HOLD) return 0;
  const boundary = text.length - HOLD;
  const space = text.slice(0, boundary).search(/\s\S*$/);
  if (space >= 0) return space + 1;
  return text.length > MAX_HOLD ? boundary : 0;
}

/** `cut` moved back to the start of any finding that runs past it, and the findings that end by then. */
function cutBefore(f: AnswerFindings, cut: number): { cut: number; found: AnswerFindings } {
  let at = cut;
  for (const m of masksOf(f).reverse()) if (m.start < at && m.end > at) at = m.start;
  return { cut: at, found: { pii: f.pii.filter((m) => m.end <= at), words: f.words.filter((m) => m.end <= at) } };
}

/** The surface's error event, as its SDKs read one: they raise it (OpenAI chat, Anthropic) or report the failed response. */
function errorEvent(surface: Surface, message: string, response: Record<string, unknown>, sequence: number): string {
  switch (surface) {
    case "chat":
      return `data: ${JSON.stringify({ error: { message, type: "guardrails", code: "answer_blocked" } })}\n\n`;
    case "anthropic":
      return `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } })}\n\n`;
    case "responses": {
      const error = { code: "answer_blocked", message };
      const failed = { ...response, status: "failed", output: [], output_text: "", error, incomplete_details: null };
      const event = { type: "response.failed", sequence_number: sequence, response: failed };
      return `event: response.failed\ndata: ${JSON.stringify(event)}\n\n`;
    }
    case "gateway":
      return `data: ${JSON.stringify({ error: message, done: true })}\n\n`;
  }
}

export function guardingEvents(source: EventSource, policy: GuardrailPolicy, report: AnswerReport): EventSource {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const { action } = policy;
  let pending = "";
  const texts = new Map<string, Text>();
  const tallies = new Map<string, AnswerTally>();
  /** Under redact, each value masked (as JSON string text) and its mask: events repeating a whole text say the same. */
  const masked = new Map<string, string>();
  let surface: Surface = "chat";
  // Responses: the response as the stream opened it, and the last sequence number, for a failed one of its own.
  let response: Record<string, unknown> = { object: "response" };
  let sequence = -1;
  /** Set once the answer has ended in an error event: nothing more is sent. */
  let stopped = false;
  /** Set with `stopped` when the provider is still writing: it is stopped, and the stream closed, at once. */
  let cancelling = false;
  let closed = false;

  const tallyOf = (answer: string) => {
    let tally = tallies.get(answer);
    if (!tally) tallies.set(answer, (tally = emptyTally()));
    return tally;
  };

  /** `text` (about to go out) with its findings masked and counted, each value kept for the events that repeat it. */
  const mask = (answer: string, text: string, found: AnswerFindings): string => {
    if (!foundAny(found)) return text;
    count(tallyOf(answer), found);
    for (const m of masksOf(found)) masked.set(JSON.stringify(text.slice(m.start, m.end)).slice(1, -1), m.mask);
    return maskAnswer(text, found);
  };

  /** What is held of `key`, masked, as a delta event of its own (before that text's next other event, or the end). */
  const release = (key: string): string => {
    const t = texts.get(key);
    if (!t?.held) return "";
    const out = mask(t.answer, t.held, findInAnswer(policy, t.held));
    t.held = "";
    return frame(t.lines, t.last.with(out));
  };
  const releaseAll = () => [...texts.keys()].map(release).join("");

  /** An event's text with every value masked so far masked in it too (Responses' done events repeat whole texts). */
  const maskRepeated = (event: string): string => {
    let out = event;
    for (const [value, replacement] of masked) out = out.replaceAll(value, replacement);
    return out;
  };

  /** The answer ends here in the surface's error event; `upstream` when the provider is still writing it. */
  const stop = (message: string, upstream: boolean): string => {
    stopped = true;
    cancelling = upstream;
    return errorEvent(surface, message, response, sequence + 1);
  };

  /** An answer's end: its whole text checked, its decisions reported; a block's message when it is blocked. */
  const finish = (answer: string): string | undefined => {
    const tally = tallyOf(answer);
    tallies.delete(answer);
    const own = [...texts].filter(([, t]) => t.answer === answer);
    for (const [key] of own) texts.delete(key);
    // Under flag nothing was checked yet; under block a match longer than the window may have gone by
    // (redact counted what it masked).
    const wholes = own.map(([, t]) => t.parts.join(""));
    if (action !== "redact") for (const whole of wholes) count(tally, findInAnswer(policy, whole));
    if (policy.answerSchema && own.length) tally.schema = schemaFailure(policy.answerSchema, wholes.join(""));
    const { decisions, refusal } = answerDecisions(policy, tally);
    if (decisions.length) report(decisions, refusal);
    return refusal;
  };

  const openAnswers = () => new Set([...tallies.keys(), ...[...texts.values()].map((t) => t.answer)]);

  /** A delta of text; `ends` when its event also ends the answer (a chunk with the last words and finish_reason). */
  const onDelta = (event: string, delta: Delta, lines: string[], ends: boolean): string => {
    let t = texts.get(delta.key);
    if (!t) texts.set(delta.key, (t = { answer: delta.answer, parts: [], tail: "", held: "", last: delta, lines }));
    t.parts.push(delta.text);
    if (action === "flag") return `${event}\n\n`;
    if (action === "block") {
      const window = fromWordStart(t.tail) + delta.text;
      t.tail = window.slice(-WINDOW);
      const found = findInAnswer(policy, window);
      if (!foundAny(found)) return `${event}\n\n`;
      count(tallyOf(delta.answer), found);
      const { decisions, refusal } = answerDecisions(policy, tallyOf(delta.answer));
      tallies.delete(delta.answer);
      report(decisions, refusal);
      return stop(refusal!, true);
    }
    t.last = delta;
    t.lines = lines;
    t.held += delta.text;
    const { cut, found } = cutBefore(findInAnswer(policy, t.held), ends ? t.held.length : releasable(t.held));
    if (cut === 0) return "";
    const out = mask(t.answer, t.held.slice(0, cut), found);
    t.held = t.held.slice(cut);
    return frame(lines, delta.with(out));
  };

  const rewrite = (event: string): string => {
    if (stopped) return "";
    const lines = event.split("\n");
    const dataLines = lines.filter((l) => l.startsWith("data:"));
    let data: unknown;
    try {
      data = dataLines.length === 1 ? JSON.parse(dataLines[0]!.slice(5)) : undefined;
    } catch {
      // [DONE] and other raw lines: what is still held goes first.
      return releaseAll() + `${event}\n\n`;
    }
    const delta = deltaOf(data);
    if (delta === undefined) return `${maskRepeated(event)}\n\n`;
    const d = data as Record<string, unknown>;
    if (typeof d.sequence_number === "number") sequence = d.sequence_number;
    if (d.type === "response.created" && typeof d.response === "object") response = d.response as typeof response;
    const end = answerEndOf(data);
    if (delta !== "other") surface = delta.surface;
    if (delta !== "other" && delta.text) {
      const out = onDelta(event, delta, lines, end !== undefined);
      if (stopped || !end) return out;
      const refusal = finish(end.answer);
      return refusal ? stop(refusal, false) : out;
    }
    // A text's end, or another event: what is held of that text (of every text, for another event) goes first.
    const held = delta === "other" ? releaseAll() : release(delta.key);
    if (end) {
      surface = end.surface;
      const refusal = finish(end.answer);
      if (refusal) return held + stop(refusal, false);
    }
    return held + `${maskRepeated(event)}\n\n`;
  };

  return {
    start: (sink) => {
      const close = () => {
        if (closed) return;
        closed = true;
        sink.close();
      };
      return source.start({
        enqueue: (bytes) => {
          if (stopped) return;
          pending += decoder.decode(bytes, { stream: true }).replace(/\r\n/g, "\n");
          const events = pending.split("\n\n");
          pending = events.pop()!;
          let out = "";
          for (const e of events) out += rewrite(e);
          if (out) sink.enqueue(encoder.encode(out));
          if (cancelling) {
            source.cancel();
            close();
          }
        },
        close: () => {
          if (!stopped) {
            const rest = pending + decoder.decode();
            let out = releaseAll() + (rest ? maskRepeated(rest) : "");
            // A stream that ended without an answer's last event: its answers end here.
            for (const answer of openAnswers()) {
              const refusal = finish(answer);
              if (refusal && !stopped) out += stop(refusal, false);
            }
            if (out) sink.enqueue(encoder.encode(out));
          }
          close();
        },
      });
    },
    cancel: () => {
      // The client left: what its answers showed so far is still reported.
      if (!stopped) for (const answer of openAnswers()) finish(answer);
      source.cancel();
    },
  };
}
