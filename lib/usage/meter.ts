import type { Database } from "../db/client.ts";
import { RequestLogRate } from "./log-rate.ts";
import type { UsageEventInput } from "./usage-event.ts";
import { databaseAnswers, writeUsage } from "./writer.ts";

// The areas report a call's billed features in the type the meter records them in.
export type { FeatureUse } from "./usage-event.ts";

export type MeterOptions = {
  flushMs: number;
  batch: number;
  /** Past this many unwritten events (the database is down), the oldest are dropped and counted. */
  maxBuffered?: number;
  /** The database did not answer: nothing was dropped, the events are written on a later flush. */
  onError?: (err: unknown) => void;
  /** The database answered but refused this one event (found by splitting its batch): it is dropped. */
  onRejected?: (err: unknown, event: UsageEventInput) => void;
  /** Told of each event as it is recorded, in memory and synchronously (the budgets count them). */
  onRecord?: (event: UsageEventInput) => void;
  /** Request-log rows a key may add a second (RequestLogRate); absent or 0, every request gets one. */
  logPerKeySecond?: number;
};

// How long `stop` waits for streams still open to record their events (the server has closed their
// connections by then, so each ends at once; the bound is for a handler that never settles).
const STREAM_SETTLE_MS = 2_000;

/**
 * Usage metering off the request path: `record` only appends to memory; a timer (or a full batch)
 * writes events, daily rollups and last-used times in one transaction. `stop` drains everything,
 * so a graceful shutdown loses nothing. One event the database refuses never holds up the rest:
 * its batch is split until it is found, and it alone is dropped (counted in `rejected`).
 */
export class Meter {
  private buffer: UsageEventInput[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Streams still open: each records its event when it ends, which `stop` waits for (briefly). */
  private open = new Set<Promise<unknown>>();
  /** The last write found the database away: further writes wait for the timer, not for each event. */
  private failing = false;
  private readonly logRate: RequestLogRate;
  /** Events in the buffer that will get a request-log row: a full batch of those starts a write. */
  private rowsBuffered = 0;
  /** Dropped because too many were waiting for the database. */
  dropped = 0;
  /** Dropped because the database refused them while it was answering. */
  rejected = 0;
  written = 0;

  constructor(
    private readonly db: Database,
    private readonly options: MeterOptions,
  ) {
    this.logRate = new RequestLogRate(options.logPerKeySecond ?? 0);
  }

  /** Requests counted in the rollups without a request-log row of their own (the per-key log rate). */
  get unlogged(): number {
    return this.logRate.skipped;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  record(event: UsageEventInput): void {
    // By the clock now, not the event's time: a research run records its calls' events as it finishes.
    if (this.logRate.take(event.keyId, Date.now())) this.rowsBuffered += 1;
    else event.unlogged = true;
    this.buffer.push(event);
    this.options.onRecord?.(event);
    const max = this.options.maxBuffered ?? 1_000_000;
    if (this.buffer.length > max) {
      const excess = this.buffer.length - max;
      this.buffer.splice(0, excess);
      this.dropped += excess;
      this.rowsBuffered = countRows(this.buffer);
    }
    if (this.rowsBuffered >= this.options.batch && !this.failing) void this.flush();
  }

  /**
   * A response still streaming, whose event is recorded when `ended` settles: `stop` waits for it, so a
   * stream the shutdown cut (its client gone) is written with the rest instead of after the last flush.
   */
  recordWhen(ended: Promise<unknown>): void {
    const settled: Promise<void> = ended.then(
      () => void this.open.delete(settled),
      () => void this.open.delete(settled),
    );
    this.open.add(settled);
  }

  pendingCount(): number {
    return this.buffer.length;
  }

  /** Events recorded here and not yet written, for answers that must include them. */
  pendingFor(keyId: string): UsageEventInput[] {
    return this.buffer.filter((e) => e.keyId === keyId);
  }

  /** Every event recorded here and not yet written (a copy). */
  pending(): UsageEventInput[] {
    return [...this.buffer];
  }

  /**
   * Runs `read` when no write is under way, and holds writes back until it is done: what it reads from
   * the database plus `pending()` taken as it starts is then every event recorded, each once.
   */
  betweenWrites<T>(read: () => Promise<T>): Promise<T> {
    const result = this.writing.then(read);
    this.writing = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Writes everything buffered so far; concurrent calls queue behind one another. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.drain());
    return this.writing;
  }

  /**
   * Stops the timer and writes what is buffered. With `retryForMs`, a database that does not answer
   * (restarting, say) is tried again every `flushMs` (at most a second) until everything is written
   * or the time is up, so a shutdown during a short outage still loses nothing.
   */
  async stop(retryForMs = 0): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const until = Date.now() + retryForMs;
    if (this.open.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise((resolve) => (timer = setTimeout(resolve, STREAM_SETTLE_MS)));
      await Promise.race([Promise.allSettled([...this.open]), bound]);
      clearTimeout(timer);
    }
    await this.flush();
    while (this.buffer.length > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.options.flushMs, 1000, until - Date.now())));
      await this.flush();
    }
  }

  private async drain(): Promise<void> {
    this.logRate.prune(Date.now());
    while (this.buffer.length > 0) {
      // Up to `batch` request-log rows, with the unlogged events between them: those only add to rollups.
      const batch = this.buffer.slice(0, batchEnd(this.buffer, this.options.batch));
      // How many events from the head are written or rejected, so a retry never writes them twice.
      const settled = { count: 0 };
      try {
        await this.writeIsolating(batch, settled);
      } catch (err) {
        this.buffer.splice(0, settled.count);
        this.rowsBuffered = countRows(this.buffer);
        this.failing = true;
        this.options.onError?.(err);
        return;
      }
      this.buffer.splice(0, batch.length);
      this.rowsBuffered = countRows(this.buffer);
      this.failing = false;
    }
  }

  /**
   * Writes the events; when the write fails but the database still answers, the fault is in the
   * events, so the batch is halved until the refused events stand alone, and those are dropped.
   * Throws (keeping what is unsettled for the next flush) only when the database does not answer.
   */
  private async writeIsolating(events: UsageEventInput[], settled: { count: number }): Promise<void> {
    try {
      await writeUsage(this.db, events);
      this.written += events.length;
      settled.count += events.length;
      return;
    } catch (err) {
      if (!(await databaseAnswers(this.db))) throw err;
      if (events.length === 1) {
        this.rejected += 1;
        settled.count += 1;
        this.options.onRejected?.(err, events[0]!);
        return;
      }
    }
    const half = Math.ceil(events.length / 2);
    await this.writeIsolating(events.slice(0, half), settled);
    await this.writeIsolating(events.slice(half), settled);
  }
}

/** How many buffered events will get a request-log row. */
function countRows(events: readonly UsageEventInput[]): number {
  let n = 0;
  for (const e of events) if (!e.unlogged) n += 1;
  return n;
}

/** The end of the next write: just past the `rows`-th event with a request-log row (or the whole buffer). */
function batchEnd(events: readonly UsageEventInput[], rows: number): number {
  let seen = 0;
  for (let i = 0; i < events.length; i++) if (!events[i]!.unlogged && ++seen === rows) return i + 1;
  return events.length;
}
