// The response cache's key for a Chat Completions request: two requests get the same key exactly when
// they ask the same question, so the JSON's key order, a default spelled out or left out, and fields
// that only label, meter or deliver the call (user, metadata, stream, ...) do not split the cache,
// while anything that can change the answer does.
import { createHash } from "node:crypto";

type Json = Record<string, unknown>;

/** Fields that do not change the answer: who asked, how it is delivered or billed, provider-side caching. */
const IGNORED = new Set([
  "user",
  "metadata",
  "stream",
  "stream_options",
  "store",
  "service_tier",
  "safety_identifier",
  "prompt_cache_key",
  "prompt_cache_retention",
  "gateway_route",
  "cache_control",
]);

/** Defaults that are a single value; tool_choice and response_format are decided in `isDefault`. */
const DEFAULTS = new Map<string, unknown>([
  ["temperature", 1],
  ["top_p", 1],
  ["n", 1],
  ["presence_penalty", 0],
  ["frequency_penalty", 0],
  ["logprobs", false],
  ["parallel_tool_calls", true],
]);

/** The cache key of an OpenAI Chat Completions request (the gateway's pivot form) for `model` (the alias or provider/model the client asked for): base64url of the SHA-256 of its canonical JSON. */
export function chatCacheKey(model: string, body: object): string {
  return createHash("sha256")
    .update(JSON.stringify(canonicalChat(model, body)))
    .digest("base64url");
}

/**
 * The cache key of an embeddings request: the model as the client named it and the inputs in order
 * (the encoding the vectors are sent in changes nothing stored). A key of its own kind, so it never
 * meets a chat request's.
 */
export function embeddingCacheKey(model: string, inputs: readonly string[]): string {
  return createHash("sha256")
    .update(JSON.stringify(["embeddings", model, inputs]))
    .digest("base64url");
}

/** The canonical form itself (for tests and debugging): a plain JSON-able value with keys sorted. */
export function canonicalChat(model: string, body: object): unknown {
  const src = body as Json;
  const hasTools = Array.isArray(src.tools) && src.tools.length > 0;
  // "model" comes from the argument and max_tokens is folded into max_completion_tokens, so both names
  // join the body's keys before sorting; a name present twice is written once.
  const keys = Object.keys(src);
  keys.push("model", "max_completion_tokens");
  keys.sort();
  const out: Json = {};
  let previous: string | undefined;
  for (const key of keys) {
    if (key === previous) continue;
    previous = key;
    let value: unknown;
    switch (key) {
      case "model":
        value = model;
        break;
      case "max_tokens":
        continue;
      case "max_completion_tokens":
        value = src.max_completion_tokens ?? src.max_tokens;
        break;
      default:
        value = src[key];
        if (IGNORED.has(key) || isDefault(key, value, hasTools)) continue;
    }
    if (value == null) continue;
    if (key === "messages" && Array.isArray(value)) value = value.map(message);
    else if (key === "stop" && typeof value === "string") value = [value];
    else value = canonical(value);
    set(out, key, value);
  }
  return out;
}

function isDefault(key: string, value: unknown, hasTools: boolean): boolean {
  if (key === "tool_choice") return value === (hasTools ? "auto" : "none");
  if (key === "response_format") return isOnly(value, "type", "text");
  return DEFAULTS.has(key) && DEFAULTS.get(key) === value;
}

/** Whether `value` is an object with the one field `key` equal to `expected`. */
function isOnly(value: unknown, key: string, expected: unknown): boolean {
  if (!isObject(value) || value[key] !== expected) return false;
  for (const other in value) if (other !== key && Object.hasOwn(value, other)) return false;
  return true;
}

/**
 * A message, keys sorted. Null fields are dropped as at the top level: an assistant message echoed back
 * from a response carries `content: null` or `refusal: null` where a hand-written one leaves them out.
 */
function message(value: unknown): unknown {
  if (!isObject(value)) return canonical(value);
  const out: Json = {};
  for (const key of Object.keys(value).sort()) {
    let field = value[key];
    if (field == null) continue;
    if (key === "content" && Array.isArray(field) && field.length === 1 && isTextPart(field[0])) field = field[0].text;
    set(out, key, canonical(field));
  }
  return out;
}

/** `{type: "text", text}` and nothing else: a part with more (cache_control, ...) is kept as an array. */
function isTextPart(part: unknown): part is { type: "text"; text: string } {
  if (!isObject(part) || part.type !== "text" || typeof part.text !== "string") return false;
  for (const key in part) if (key !== "type" && key !== "text" && Object.hasOwn(part, key)) return false;
  return true;
}

/** Any JSON value with object keys sorted at every depth; arrays keep their order, as it can matter. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort()) {
    const field = value[key];
    // JSON.stringify leaves out undefined fields anyway; dropping them here keeps the form what it hashes.
    if (field !== undefined) set(out, key, canonical(field));
  }
  return out;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `out[key] = value`, except that a "__proto__" key (JSON.parse makes it an own field) would set the
 * prototype instead and vanish from the JSON, so two bodies differing only there would share a key.
 */
function set(out: Json, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
