import type { Database } from "../db/client.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export type RetentionOptions = {
  /** Rows older than this many days are deleted (REQUEST_LOG_RETENTION_DAYS). */
  days: number;
  /** Time between the end of one sweep and the start of the next. */
  everyMs?: number;
  /** The first sweep, after start: late enough not to compete with start-up, soon enough for short-lived processes. */
  firstAfterMs?: number;
  /** Rows per DELETE: small, so no statement holds PGlite's one connection (or a PostgreSQL lock) for long. */
  batch?: number;
  /** Pause between batches, in which the meter's writes and the portal's reads get their turn. */
  pauseMs?: number;
  onError?: (err: unknown) => void;
  /** A sweep finished having deleted `deleted` rows older than `before`. */
  onSwept?: (deleted: number, before: Date) => void;
};

/**
 * Deletes up to `batch` of the oldest rows of the request log (or of the bodies kept beside it) created
 * before `before`; returns how many.
 * SKIP LOCKED: instances sweeping one PostgreSQL at once take different rows instead of waiting.
 */
export async function deleteExpiredBatch(
  db: Database,
  before: Date,
  batch: number,
  table: "usage_events" | "request_bodies" = "usage_events",
): Promise<number> {
  return db.prisma.$executeRawUnsafe(
    `DELETE FROM ${table} WHERE id IN (
       SELECT id FROM ${table} WHERE created_at < ($1::timestamptz AT TIME ZONE 'UTC')
       ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    before.toISOString(),
    batch,
  );
}

/**
 * The request log's retention: per-request rows (usage_events) expire after `days`, swept off the request
 * path by a timer in small batches. The daily rollups (usage_daily, usage_daily_provider), which every
 * usage total reads, are never touched, so totals past the retention stay as they were.
 */
export class RequestLogRetention {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly options: RetentionOptions,
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.schedule(this.options.firstAfterMs ?? 60_000);
  }

  /** The instant before which rows are expired, as of `now`. */
  cutoff(now = new Date()): Date {
    return new Date(now.getTime() - this.options.days * DAY_MS);
  }

  /** Deletes every expired row, batch by batch; a call during a sweep joins it. Resolves with the rows deleted. */
  sweep(now = new Date()): Promise<number> {
    this.sweeping ??= this.deleteAll(this.cutoff(now)).finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  /** Stops the timer and waits for a sweep under way, which ends after its current batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sweeping?.catch(() => undefined);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.sweep()
        .catch((err: unknown) => this.options.onError?.(err))
        .finally(() => {
          if (!this.stopped) this.schedule(this.options.everyMs ?? 60 * 60_000);
        });
    }, ms);
    this.timer.unref();
  }

  private async deleteAll(before: Date): Promise<number> {
    const deleted = await this.deleteFrom("usage_events", before);
    // The bodies kept beside the rows (REQUEST_LOG_BODIES) go with them; counted apart, as they are not rows of the log.
    await this.deleteFrom("request_bodies", before);
    this.options.onSwept?.(deleted, before);
    return deleted;
  }

  private async deleteFrom(table: "usage_events" | "request_bodies", before: Date): Promise<number> {
    const batch = this.options.batch ?? 1000;
    let deleted = 0;
    for (;;) {
      const n = await deleteExpiredBatch(this.db, before, batch, table);
      deleted += n;
      if (n < batch || this.stopped) break;
      await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs ?? 20));
    }
    return deleted;
  }
}
