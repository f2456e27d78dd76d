import { LRUCache } from "lru-cache";
import type { Database } from "../../db/client.ts";
import { toKeyRecord, withEnforcedTerms, type KeyPolicy, type KeyRecord } from "./record.ts";
import { hashKey, looksLikeKey } from "./secrets.ts";

export type KeyStoreOptions = {
  /** How often to read keys changed by other processes (revocations, new limits). */
  refreshMs: number;
  /** The service defaults and console policy, applied as records enter memory (enforcedTerms). */
  policy?: KeyPolicy;
  /** How long a key found in no row is answered from memory, so a flood of random keys costs no query each. */
  unknownTtlMs?: number;
  /** How many unknown keys are remembered: a separate, smaller cache, so a flood cannot evict real keys. */
  unknownMax?: number;
  onError?: (err: unknown) => void;
};

// Rows changed within this window are read again on every poll, so writes stamped by a clock
// slightly behind ours (another instance, the CLI) are never missed.
const CLOCK_SLACK_MS = 5_000;

/**
 * Resolves API keys from memory. A key's row is read from the database once, then kept; a poll of
 * recently changed rows (and an explicit `forget` from the Redis key channel) keeps every instance
 * within one refresh interval of a revocation. Unknown keys are remembered for a few seconds; a key
 * created meanwhile clears that entry (remember here, the key channel or the poll elsewhere).
 */
export class KeyStore {
  private readonly cache = new LRUCache<string, KeyRecord>({ max: 100_000 });
  private readonly unknown: LRUCache<string, true>;
  private readonly loading = new Map<string, Promise<KeyRecord | null>>();
  private watermark = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly options: KeyStoreOptions,
  ) {
    this.unknown = new LRUCache({ max: options.unknownMax ?? 10_000, ttl: options.unknownTtlMs ?? 5_000 });
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.polling;
  }

  /** The key's record, or null when no key has this value. Status and expiry are the caller's to judge. */
  async resolve(rawKey: string): Promise<KeyRecord | null> {
    if (!looksLikeKey(rawKey)) return null;
    return this.resolveHash(hashKey(rawKey));
  }

  /**
   * The same answer when memory has it, without a promise (the plain lane's hot path): the record, null for
   * a key known not to exist, undefined when it must be read (then use resolve).
   */
  resolveKnown(rawKey: string): KeyRecord | null | undefined {
    return looksLikeKey(rawKey) ? this.known(hashKey(rawKey)) : null;
  }

  /** resolve, for a key known by its hash only (a console key, whose secret was never kept). */
  async resolveHash(hash: string): Promise<KeyRecord | null> {
    const known = this.known(hash);
    if (known !== undefined) return known;
    let pending = this.loading.get(hash);
    if (!pending) {
      pending = this.load(hash).finally(() => this.loading.delete(hash));
      this.loading.set(hash, pending);
    }
    return pending;
  }

  /** What memory says of a hash: its record, null for a key known not to exist, undefined when unknown here. */
  private known(hash: string): KeyRecord | null | undefined {
    return this.cache.get(hash) ?? (this.unknown.has(hash) ? null : undefined);
  }

  /** Puts a record in memory now (a key this process just created or changed). */
  remember(record: KeyRecord): void {
    this.unknown.delete(record.hash);
    this.cache.set(record.hash, withEnforcedTerms(record, this.options.policy));
  }

  /** Drops what is known about a key so the next request reads it again. */
  forget(hash: string): void {
    this.unknown.delete(hash);
    this.cache.delete(hash);
  }

  /** Reads rows changed since the last poll and updates the ones in memory. */
  refresh(): Promise<void> {
    this.polling ??= this.poll().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async poll(): Promise<void> {
    try {
      const since = new Date(this.watermark - CLOCK_SLACK_MS);
      const rows = await this.db.prisma.apiKey.findMany({ where: { updatedAt: { gt: since } } });
      for (const row of rows) {
        this.watermark = Math.max(this.watermark, row.updatedAt.getTime());
        this.unknown.delete(row.hash);
        if (this.cache.has(row.hash))
          this.cache.set(row.hash, withEnforcedTerms(toKeyRecord(row), this.options.policy));
      }
    } catch (err) {
      this.options.onError?.(err);
    }
  }

  private async load(hash: string): Promise<KeyRecord | null> {
    const row = await this.db.prisma.apiKey.findUnique({ where: { hash } });
    if (!row) {
      // A key created while this read was in flight has been remembered since: it wins.
      const remembered = this.cache.get(hash);
      if (!remembered) this.unknown.set(hash, true);
      return remembered ?? null;
    }
    const record = withEnforcedTerms(toKeyRecord(row), this.options.policy);
    this.cache.set(hash, record);
    return record;
  }
}
