// Where cached model answers live: Redis when REDIS_URL is set, so every instance answers from the same
// entries, else an in-process LRU bounded in bytes. Entries are grouped by scope (whose answers they
// are: a key's lineage), so one owner's entries can be listed and cleared without touching another's.
import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";
import { GatewayError } from "../../errors.ts";

/**
 * A stored answer: its text (JSON of a CachedAnswer), what both stores keep, and once read in this
 * process its parsed value, which the memory store keeps beside the text so later hits parse nothing.
 * Readers treat the parsed value as read-only: every hit of the entry shares it.
 */
export type StoredAnswer = { text: string; parsed?: unknown };

/** Where the answers are kept, by scope and key. */
export interface AnswerStore {
  get(scope: string, key: string): Promise<StoredAnswer | undefined>;
  set(scope: string, key: string, value: string, ttlMs: number): Promise<void>;
  /** Removes a scope's entries, or every entry when `scope` is undefined; resolves with how many went. */
  clear(scope: string | undefined): Promise<number>;
}

// A newline cannot be in a scope (key ids and user ids are word characters), so scope and key never run together.
const joined = (scope: string, key: string) => `${scope}\n${key}`;

export class MemoryAnswerStore implements AnswerStore {
  private readonly lru: LRUCache<string, StoredAnswer>;

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, StoredAnswer>({
      maxSize: maxBytes,
      // UTF-16 code units are what V8 keeps a string in, at most: a bound in bytes that never undercounts
      // by half; the parsed value, once there, takes about as much again.
      sizeCalculation: (value, key) => 4 * value.text.length + 2 * key.length,
    });
  }

  async get(scope: string, key: string) {
    return this.lru.get(joined(scope, key));
  }

  async set(scope: string, key: string, value: string, ttlMs: number) {
    this.lru.set(joined(scope, key), { text: value }, { ttl: ttlMs });
  }

  async clear(scope: string | undefined) {
    if (scope === undefined) {
      const n = this.lru.size;
      this.lru.clear();
      return n;
    }
    const prefix = `${scope}\n`;
    let n = 0;
    for (const k of [...this.lru.keys()])
      if (k.startsWith(prefix)) {
        this.lru.delete(k);
        n++;
      }
    return n;
  }
}

const PREFIX = "gw:llmcache:";
// SCAN's MATCH is a glob: a scope's own characters must match only themselves.
const globEscaped = (s: string) => s.replace(/[*?[\]\\]/g, "\\$&");

/** Shared by every instance on one Redis; a Redis hiccup on a lookup or a store is a miss, never an error. */
export class RedisAnswerStore implements AnswerStore {
  constructor(
    private readonly redis: Redis,
    private readonly onError: (err: unknown) => void,
  ) {}

  async get(scope: string, key: string) {
    try {
      const text = await this.redis.get(`${PREFIX}${scope}:${key}`);
      return text === null ? undefined : { text };
    } catch (err) {
      this.onError(err);
      return undefined;
    }
  }

  async set(scope: string, key: string, value: string, ttlMs: number) {
    try {
      await this.redis.set(`${PREFIX}${scope}:${key}`, value, "PX", ttlMs);
    } catch (err) {
      // A cache that cannot write is only slower.
      this.onError(err);
    }
  }

  async clear(scope: string | undefined) {
    const match = scope === undefined ? `${PREFIX}*` : `${PREFIX}${globEscaped(scope)}:*`;
    let n = 0;
    let cursor = "0";
    try {
      do {
        const [next, keys] = await this.redis.scan(cursor, "MATCH", match, "COUNT", 500);
        cursor = next;
        if (keys.length) n += await this.redis.unlink(...keys);
      } while (cursor !== "0");
    } catch (err) {
      this.onError(err);
      throw new GatewayError(503, "the cache's store (Redis) did not answer; nothing or only part was cleared");
    }
    return n;
  }
}
