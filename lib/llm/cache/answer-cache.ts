// The response cache of model answers, as a request meets it: whether it asked for the cache (the
// standard Cache-Control request header), the key of its question (canonical.ts), whose entries it may
// read (its key's lineage), and the stored answer, one per question whichever surface asked, kept as
// the gateway's pivot form (a whole Chat Completion) and replayed in the asking surface's form.
import type { Redis } from "ioredis";
import type { Call } from "../../gateway/pipeline/call.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import type { CacheUse } from "../../usage/usage-event.ts";
import type { KeyRecord } from "../../gateway/keys/record.ts";
import type { AliasCachePolicy, CacheScope } from "../routing/config.ts";
import type { ChatStream, Usage } from "../chat-types.ts";
import type { ChatSink } from "../wire/openai-chat.ts";
import type { ChatCompletion } from "../wire/types.ts";
import { AnswerRecorder, recordingSink } from "./chunks.ts";
import { chatCacheKey, embeddingCacheKey } from "./canonical.ts";
import { cacheDirective, type CacheDirective } from "./directive.ts";
import { MemoryAnswerStore, RedisAnswerStore, type AnswerStore } from "./store.ts";
import { semanticLookup, type SemanticLookup } from "./semantic/lookup.ts";
import { clearSemantic } from "./semantic/semantic-cache.ts";

/** What is stored for a question: the answer (a chat completion, unless said) and what it cost when the provider gave it. */
export type CachedAnswer<A = ChatCompletion> = {
  answer: A;
  /** Epoch ms. */
  storedAt: number;
  provider: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
};

/** A hit as the request log and the answer's headers tell it; `similarity` when a near question's answer (the semantic cache). */
export type CacheHit<A = ChatCompletion> = CachedAnswer<A> & { ageS: number; similarity?: number };

export const CACHE_MISS: CacheUse = { state: "miss" };

function openStore(rt: Runtime): AnswerStore {
  if (!rt.config.redisUrl) return new MemoryAnswerStore(rt.config.answerCache.maxBytes);
  // Its own connection, closed with the runtime: a slow cache never queues behind the limiter's commands.
  const redis = import("../../gateway/runtime/redis.ts").then(({ connectRedis }) => {
    const client = connectRedis(rt.config.redisUrl!, "gateway-answer-cache");
    client.on("error", (err) => rt.logger.warn({ err }, "redis answer cache"));
    rt.onClose(async () => void (await client.quit()));
    return client;
  });
  return lazyStore(redis, (err) => rt.logger.warn({ err }, "the answer cache's Redis failed; answering without it"));
}

// On the runtime itself, under a registered symbol, not in a module's WeakMap (perRuntime): the portal's
// server actions run from Next's own bundle, whose copy of this module would otherwise open a second
// store beside the one /v1 answers from, and an operator's "clear" would empty the wrong one.
const STORE = Symbol.for("unified-gateway.answer-store");

function store(rt: Runtime): AnswerStore {
  const holder = rt as Runtime & { [STORE]?: AnswerStore };
  return (holder[STORE] ??= openStore(rt));
}

/**
 * Removes a scope's cached answers, or every answer when `scope` is undefined, and the semantic cache's
 * vectors with them; resolves with how many of each went.
 */
export async function clearAnswers(
  rt: Runtime,
  scope: string | undefined,
): Promise<{ answers: number; vectors: number }> {
  const [answers, vectors] = await Promise.all([store(rt).clear(scope), clearSemantic(rt, scope)]);
  return { answers, vectors };
}

/** The scope of a key's entries: its lineage, so a rotated key keeps its cache and no other key sees it. */
export const keyScope = (limitKey: string): string => `k:${limitKey}`;

/**
 * Whose entries a call reads and fills: its key's lineage, unless the policy widens that to every key of
 * the key's user or of its team, or (an alias's, `shared`) to every key calling the alias. A key with no
 * user or team keeps to its lineage.
 */
export function cacheScope(
  scope: CacheScope,
  key: Pick<KeyRecord, "limitKey" | "userId" | "teamId">,
  model: string,
): string {
  if (scope === "shared") return aliasScope(model);
  if (scope === "user" && key.userId) return `u:${key.userId}`;
  if (scope === "team" && key.teamId) return `t:${key.teamId}`;
  return keyScope(key.limitKey);
}

/** The scopes whose entries a key may clear (DELETE /v1/cache): its lineage's, and its policy's pool when that is its user's or team's. */
export function ownScopes(key: Pick<KeyRecord, "limitKey" | "userId" | "teamId" | "cache">): string[] {
  const own = keyScope(key.limitKey);
  const pool = key.cache && key.cache.scope !== "shared" ? cacheScope(key.cache.scope, key, "") : own;
  return pool === own ? [own] : [own, pool];
}

/**
 * The cache's part in one model call: made only when the request asked for the cache (Cache-Control:
 * max-age or no-cache) or its alias's policy does (`policy`, from the routing file); undefined otherwise,
 * so a call that uses no cache pays one header read. An alias whose policy is `shared` keeps one pool
 * of answers for every key; any other entry is the calling key's lineage's alone.
 */
export function cacheFor(
  c: Call,
  model: string,
  body: object,
  aliasPolicy?: AliasCachePolicy,
): RequestCache | undefined {
  return chatCache(c, model, () => body, aliasPolicy);
}

/** The alias's policy, else the calling key's (the operator sets both; a request's own header wins over either). */
const policyOf = (c: Call, alias: AliasCachePolicy | undefined): AliasCachePolicy | undefined => alias ?? c.key?.cache;

/**
 * As cacheFor, for a surface whose request is not a Chat Completions body: keyed on the request's chat
 * pivot, so the same question shares one entry whichever surface asked. `pivot` runs only when the
 * request uses the cache; a request it cannot carry (it throws: a field or block the pivot has no place
 * for, which only the provider's own wire can take) has no key, and is answered without the cache rather
 * than refused, as it would be without the header.
 */
export function pivotCacheFor(
  c: Call,
  model: string,
  pivot: () => object,
  aliasPolicy?: AliasCachePolicy,
): RequestCache | undefined {
  try {
    return chatCache(c, model, pivot, aliasPolicy);
  } catch {
    return undefined;
  }
}

/** A chat question's cache, `question` built only when the request uses the cache; semantic when the policy says. */
function chatCache(
  c: Call,
  model: string,
  question: () => object,
  aliasPolicy: AliasCachePolicy | undefined,
): RequestCache | undefined {
  const policy = policyOf(c, aliasPolicy);
  let asked: object | undefined;
  const cache = openRequestCache(c, model, policy, () => chatCacheKey(model, (asked = question())), replayable);
  if (cache && policy?.semantic) cache.semantic = semanticLookup(c, model, asked!, policy.semantic);
  return cache;
}

/** The vectors of an embeddings request, as the cache keeps them. */
export type CachedEmbeddings = { embeddings: number[][] };

/** The cache's part in an embeddings call: as cacheFor, keyed on the model and the inputs in order. */
export function embeddingCacheFor(
  c: Call,
  model: string,
  inputs: readonly string[],
  aliasPolicy?: AliasCachePolicy,
): RequestCache<CachedEmbeddings> | undefined {
  return openRequestCache(
    c,
    model,
    policyOf(c, aliasPolicy),
    () => embeddingCacheKey(model, inputs),
    () => true,
  );
}

/** What every kind of call shares: the directive, the scope, and the key computed only when the cache is used. */
function openRequestCache<A>(
  c: Call,
  model: string,
  policy: AliasCachePolicy | undefined,
  key: () => string,
  keepable: (answer: A) => boolean,
): RequestCache<A> | undefined {
  const directive = cacheDirective(c.header("cache-control"), policy && policyDirective(policy));
  if (!directive || !c.key) return undefined;
  const scope = cacheScope(policy?.scope ?? "key", c.key, model);
  return new RequestCache<A>(store(c.runtime), c.runtime.config.answerCache, scope, key(), directive, keepable);
}

const policyDirective = (policy: AliasCachePolicy): CacheDirective => ({ maxAgeS: policy.maxAgeS, store: true });

/** The scope of a shared alias's entries: every key's calls to it. */
const aliasScope = (alias: string): string => `a:${alias}`;

export class RequestCache<A = ChatCompletion> {
  /** The semantic cache's part, for a chat question an alias's policy lets it match. */
  semantic: SemanticLookup | undefined;

  constructor(
    private readonly store: AnswerStore,
    private readonly settings: Pick<Runtime["config"]["answerCache"], "ttlMs" | "maxEntryBytes">,
    readonly scope: string,
    readonly key: string,
    private readonly directive: CacheDirective,
    /** Whether an answer can be given back as it came; one that cannot is not kept. */
    private readonly keepable: (answer: A) => boolean,
  ) {}

  /** The stored answer when there is one young enough for the request; undefined is a miss. */
  async read(): Promise<CacheHit<A> | undefined> {
    if (this.directive.maxAgeS <= 0) {
      // Its answer is kept (no-cache): its vector is made meanwhile, beside the provider's call.
      this.semantic?.prepare();
      return undefined;
    }
    const exact = await this.entry(this.key);
    if (exact || !this.semantic) return exact;
    const near = await this.semantic.nearest(this.scope);
    if (!near) return undefined;
    const hit = await this.entry(near.answerKey);
    // Its answer expired or was cleared: the vector can never answer again.
    if (!hit) this.semantic.forget(near.id);
    return hit && { ...hit, similarity: near.similarity };
  }

  /** The entry stored under `key`, if young enough for the request. */
  private async entry(key: string): Promise<CacheHit<A> | undefined> {
    const stored = await this.store.get(this.scope, key);
    if (stored === undefined) return undefined;
    let entry: CachedAnswer<A>;
    try {
      entry = (stored.parsed ??= JSON.parse(stored.text)) as CachedAnswer<A>;
    } catch {
      return undefined;
    }
    const ageS = Math.max(0, Math.floor((Date.now() - entry.storedAt) / 1000));
    return ageS <= this.directive.maxAgeS ? { ...entry, ageS } : undefined;
  }

  /** What keeps a streamed answer: its chunks recorded as they pass, stored once the stream completes. */
  recorder(this: RequestCache): StreamKeeper {
    return new StreamKeeper(this, this.settings.maxEntryBytes);
  }

  /** Keeps an answer for the cache's TTL, unless it is larger than an entry may be. */
  async write(entry: Omit<CachedAnswer<A>, "storedAt">): Promise<void> {
    if (!this.directive.store || !this.keepable(entry.answer)) return;
    const text = JSON.stringify({ ...entry, storedAt: Date.now() });
    if (Buffer.byteLength(text) > this.settings.maxEntryBytes) return;
    await this.store.set(this.scope, this.key, text, this.settings.ttlMs);
    // The vector goes to the table off the answer's path (an embedding to make, for a no-cache request).
    this.semantic?.keep(this.scope, this.key, Date.now() + this.settings.ttlMs);
  }
}

/**
 * A streamed answer on its way to the cache: each attempt's sink records its chunks afresh (an attempt
 * that failed over left nothing the client saw), and only a stream that completed is stored.
 */
export class StreamKeeper {
  #recorder: AnswerRecorder | undefined;
  #name = "";

  constructor(
    private readonly cache: RequestCache,
    private readonly maxChars: number,
  ) {}

  /** `inner`, recording for the cache; `name` is the model the answer carries (provider/model). */
  sink(inner: ChatSink, name: string): ChatSink {
    this.#name = name;
    this.#recorder = new AnswerRecorder(this.maxChars);
    return recordingSink(inner, this.#recorder);
  }

  /** A recorder fed chunks made for the cache alone (from events relayed as they came); `name` as for sink. */
  recorder(name: string): AnswerRecorder {
    this.#name = name;
    return (this.#recorder = new AnswerRecorder(this.maxChars));
  }

  keepWhenFinished(stream: ChatStream): void {
    void stream.finished
      .then(async (o) => {
        const answer = o.complete ? this.#recorder?.answer() : undefined;
        if (answer) await this.cache.write(cachedFrom({ ...answer, model: this.#name }, o));
      })
      // A stream that failed was metered and answered as such; there is nothing to keep.
      .catch(() => {});
  }
}

/** What is stored of an answer the provider just gave. */
export const cachedFrom = (
  answer: ChatCompletion,
  r: { provider: string; model: string; usage: Usage },
): Omit<CachedAnswer, "storedAt"> => ({
  answer,
  provider: r.provider,
  model: r.model,
  promptTokens: r.usage.prompt_tokens,
  completionTokens: r.usage.completion_tokens,
});

/**
 * Whether every surface can replay the answer as it was given: log probabilities, audio, a legacy
 * function_call and free-form (custom) tool calls have no place in the chunks a hit is streamed as, so
 * such an answer is not kept rather than replayed with parts missing.
 */
function replayable(answer: ChatCompletion): boolean {
  return answer.choices.every(
    ({ logprobs, message }) =>
      !logprobs &&
      !message.audio &&
      !message.function_call &&
      (message.tool_calls ?? []).every((call) => call.type === "function"),
  );
}

/** A hit as the request log records it, and the headers it answers with. */
export function hitUse(hit: CacheHit<unknown>): CacheUse {
  return {
    state: "hit",
    ...(hit.similarity !== undefined && { similarity: roundedSimilarity(hit.similarity) }),
    ageS: hit.ageS,
    provider: hit.provider,
    model: hit.model,
    promptTokens: hit.promptTokens,
    completionTokens: hit.completionTokens,
  };
}

/** A hit's headers (and, by the operator's policy, its minute given back): every surface calls this on a hit. */
export function setHitHeaders(c: Call, hit: CacheHit<unknown>): void {
  // The operator's policy: a hit counts against the day and the budget, not the minute.
  if (c.admission && c.runtime.config.answerCache.hitsFreeOfMinuteLimit)
    for (const [name, value] of Object.entries(c.admission.forgiveMinute())) c.setHeader(name, value);
  if (hit.similarity === undefined) c.setHeader("x-gateway-cache", "hit");
  else {
    c.setHeader("x-gateway-cache", "semantic-hit");
    c.setHeader("x-gateway-cache-similarity", String(roundedSimilarity(hit.similarity)));
  }
  c.setHeader("age", String(hit.ageS));
}

/** Four decimals: what a threshold is set in; half precision vectors say no more. */
const roundedSimilarity = (s: number): number => Math.round(Math.min(1, Math.max(0, s)) * 10_000) / 10_000;

/** A Redis store whose connection is still being opened on the first request (ioredis loads on demand). */
function lazyStore(client: Promise<Redis>, onError: (err: unknown) => void): AnswerStore {
  const ready = client.then((redis) => new RedisAnswerStore(redis, onError));
  return {
    get: async (scope, key) => (await ready).get(scope, key),
    set: async (scope, key, value, ttlMs) => (await ready).set(scope, key, value, ttlMs),
    clear: async (scope) => (await ready).clear(scope),
  };
}
