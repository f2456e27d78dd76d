import { createHash } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import type { Redis as IORedis } from "ioredis";
import { WINDOW_MS, type LimitStore, type WindowKind, type WindowState } from "./windows.ts";

/** The slice of a Redis client that @upstash/ratelimit and our concurrency script use. */
export type ScriptRedis = {
  evalsha<T>(sha: string, keys: string[], args: unknown[]): Promise<T>;
  eval<T>(script: string, keys: string[], args: unknown[]): Promise<T>;
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<unknown>;
};

/**
 * Lets @upstash/ratelimit run on a plain Redis server through ioredis. Its scripts start with an
 * Upstash-only shebang flag (`allow-key-locking`) that Redis 7 refuses, so the flag line is dropped
 * and the script's own SHA is used for EVALSHA.
 */
export function scriptRedisFromIORedis(client: IORedis): ScriptRedis {
  const bySha = new Map<string, { sha: string; body: string }>();
  const portable = (script: string) => {
    const body = script.replace(/^#!lua[^\n]*\n/, "");
    return { sha: createHash("sha1").update(body).digest("hex"), body };
  };
  const run = async <T>(script: { sha: string; body: string }, keys: string[], args: unknown[]): Promise<T> => {
    const argv = args.map((a) => (a === null || a === undefined ? "" : String(a)));
    try {
      return (await client.evalsha(script.sha, keys.length, ...keys, ...argv)) as T;
    } catch (err) {
      if (!String(err).includes("NOSCRIPT")) throw err;
      return (await client.eval(script.body, keys.length, ...keys, ...argv)) as T;
    }
  };
  return {
    async evalsha<T>(sha: string, keys: string[], args: unknown[]) {
      const script = bySha.get(sha);
      // Unknown to us: answer as Redis would so the caller falls back to eval() with the text.
      if (!script) throw new Error("NOSCRIPT No matching script (gateway adapter)");
      return run<T>(script, keys, args);
    },
    async eval<T>(script: string, keys: string[], args: unknown[]) {
      const p = portable(script);
      bySha.set(createHash("sha1").update(script).digest("hex"), p);
      return run<T>(p, keys, args);
    },
    get: (key) => client.get(key),
    set: (key, value) => client.set(key, String(value)),
  };
}

// Takes a slot unless all are in use; the TTL frees slots a crashed instance never released.
const ACQUIRE = `
local n = redis.call("INCR", KEYS[1])
redis.call("EXPIRE", KEYS[1], tonumber(ARGV[2]))
if n > tonumber(ARGV[1]) then
  redis.call("DECR", KEYS[1])
  return {0, n - 1}
end
return {1, n}`;
const RELEASE = `
local n = redis.call("DECR", KEYS[1])
if n <= 0 then redis.call("DEL", KEYS[1]) end
return n`;
const SLOT_TTL_SECONDS = 600;

/** Limits shared by every instance that points at the same Redis, through @upstash/ratelimit. */
export class RedisLimitStore implements LimitStore {
  private readonly limiters = new Map<string, Ratelimit>();

  constructor(
    private readonly redis: ScriptRedis,
    private readonly prefix = "gw:rl",
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  async hit(keyId: string, kind: WindowKind, limit: number): Promise<WindowState> {
    const r = await this.limiter(kind, limit).limit(keyId);
    return { success: r.success, limit: r.limit, remaining: r.remaining, reset: r.reset };
  }

  async peek(keyId: string, kind: WindowKind, limit: number): Promise<WindowState> {
    const r = await this.limiter(kind, limit).getRemaining(keyId);
    return { success: r.remaining > 0, limit, remaining: Math.max(0, r.remaining), reset: r.reset };
  }

  async acquire(keyId: string, max: number): Promise<{ ok: boolean; inUse: number }> {
    const [ok, inUse] = await this.redis.eval<[number, number]>(
      ACQUIRE,
      [this.slotKey(keyId)],
      [max, SLOT_TTL_SECONDS],
    );
    return { ok: ok === 1, inUse: Number(inUse) };
  }

  async release(keyId: string): Promise<void> {
    await this.redis.eval(RELEASE, [this.slotKey(keyId)], []);
  }

  async close(): Promise<void> {
    await this.onClose();
  }

  private slotKey(keyId: string) {
    return `${this.prefix}:concurrency:${keyId}`;
  }

  // One limiter per (window, limit): per-key overrides are rare, so the map stays small.
  private limiter(kind: WindowKind, limit: number): Ratelimit {
    const id = `${kind}:${limit}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const window = `${WINDOW_MS[kind]} ms` as const;
      limiter = new Ratelimit({
        redis: this.redis as never,
        limiter: kind === "day" ? Ratelimit.fixedWindow(limit, window) : Ratelimit.slidingWindow(limit, window),
        prefix: `${this.prefix}:${kind}`,
        analytics: false,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
