import type { Redis } from "ioredis";
import { LRUCache } from "lru-cache";

/** Where upstream answers are kept between identical lookups. */
export interface UpstreamCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

export class MemoryUpstreamCache implements UpstreamCache {
  private readonly lru = new LRUCache<string, string>({
    max: 10_000,
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (v) => v.length || 1,
  });

  async get(key: string) {
    return this.lru.get(key);
  }

  async set(key: string, value: string, ttlMs: number) {
    this.lru.set(key, value, { ttl: ttlMs });
  }
}

/** Shared by every instance on one Redis; a Redis hiccup degrades to a miss, never an error. */
export class RedisUpstreamCache implements UpstreamCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = "gw:upstream:",
  ) {}

  async get(key: string) {
    try {
      return (await this.redis.get(this.prefix + key)) ?? undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: string, ttlMs: number) {
    try {
      await this.redis.set(this.prefix + key, value, "PX", ttlMs);
    } catch {
      // A cache that cannot write is only slower.
    }
  }
}
