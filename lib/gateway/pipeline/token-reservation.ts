// A model call's tokens reserved before it runs, for a key with token limits of its own or above it (its
// user's, team's, organisation's): its prompt's estimated size and its maximum output, checked and counted
// in every one of those token windows in one store call (the limiter's), and settled with the tokens the
// call really used once its usage is metered (the answer sent, a stream ended or left, an error). A key
// without token limits anywhere pays one check.
import { RateLimitError } from "../../errors.ts";
import type { KeyRecord } from "../keys/record.ts";
import type { NamedTokenSubject, TokenReservation } from "../runtime/limits/limiter.ts";
import type { Runtime } from "../runtime/runtime.ts";

/** What a model call may answer with when its request names no maximum: reserved, then settled. */
export const DEFAULT_OUTPUT_RESERVE = 1_024;

// What an inline image or file (a data: URL) is reserved as: about what a provider charges for an image.
const INLINE_MEDIA_TOKENS = 1_000;
// Characters a token stands for in the estimate: English prose runs at about 4.
const CHARS_PER_TOKEN = 4;

/** Routes whose calls produce no completion tokens (embeddings). */
const NO_OUTPUT = /\/(embeddings|embed|embed-batch|similarity)$/;

/**
 * The tokens a call's body may use: its text's characters over 4 (every string in it but data: URLs,
 * which count as one image each, and field names) and its maximum output (`max_tokens`,
 * `max_completion_tokens` or `max_output_tokens`; else DEFAULT_OUTPUT_RESERVE; none for embeddings).
 */
export function estimateTokens(route: string, body: unknown): number {
  let chars = 0;
  let media = 0;
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === "string") {
      if (value.startsWith("data:")) media++;
      else chars += value.length;
    } else if (depth < 32 && typeof value === "object" && value !== null) {
      for (const v of Array.isArray(value) ? value : Object.values(value)) walk(v, depth + 1);
    }
  };
  walk(body, 0);
  const prompt = Math.ceil(chars / CHARS_PER_TOKEN) + media * INLINE_MEDIA_TOKENS;
  if (NO_OUTPUT.test(route)) return prompt;
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const max = [b.max_tokens, b.max_completion_tokens, b.max_output_tokens].find(
    (v): v is number => typeof v === "number" && Number.isInteger(v) && v > 0,
  );
  return prompt + (max ?? DEFAULT_OUTPUT_RESERVE);
}

/**
 * Whether a request of the llm area is a model call whose tokens are reserved: a body with messages, an
 * input or a prompt. Listing models, picking one (tiered-select) or managing provider keys reserve nothing.
 */
export function isModelCall(body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const b = body as Record<string, unknown>;
  return Array.isArray(b.messages) || b.input !== undefined || typeof b.prompt === "string";
}

/**
 * Reserves the call's tokens in every token window over it (its key's, its user's, team's, organisation's),
 * or refuses it with the 429 naming the level and the token window.
 */
export async function reserveTokens(
  rt: Runtime,
  subjects: readonly NamedTokenSubject[],
  route: string,
  body: unknown,
): Promise<TokenReservation> {
  try {
    return await rt.limiter.reserveTokens(subjects, estimateTokens(route, body));
  } catch (err) {
    if (err instanceof RateLimitError) rt.metrics.rateLimited.inc({ kind: err.window });
    throw err;
  }
}

/**
 * Reserves a model call's tokens for a key in every token window over it (its own, its user's, team's,
 * organisation's): the reservation, or undefined when no window limits the key's tokens. The one entry
 * for API calls, batch items and research agents' calls alike; a refusal is the RateLimitError.
 */
export function reserveKeyTokens(
  rt: Runtime,
  key: KeyRecord,
  route: string,
  body: unknown,
): Promise<TokenReservation> | undefined {
  const subjects = rt.levels.chainOf(key).tokens;
  return subjects.length > 0 ? reserveTokens(rt, subjects, route, body) : undefined;
}
