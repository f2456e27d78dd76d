import type { Database } from "../db/client.ts";
import { isUnsafeText, toSafeText } from "../gateway/http/safe-text.ts";
import { RequestLogRate } from "./log-rate.ts";

/**
 * Uses of a provider's features billed beyond tokens (Anthropic's web searches, a priority service
 * tier...), by feature name: what the provider said one call used, or a day's sum in usage_daily_feature.
 */
export type FeatureUse = Record<string, number>;

export type UsageEventInput = {
  keyId: string;
  requestId: string;
  method: string;
  route: string;
  /** The scope of the area that served the route (the guard's), which every usage view groups by. */
  area: string;
  status: number;
  latencyMs: number;
  bytesIn: number;
  bytesOut: number;
  provider?: string;
  model?: string;
  promptTokens?: number;
  completionTokens?: number;
  /** Beyond tokens, with `provider`: written to usage_daily_feature, priced by the budgets (featureCost). */
  features?: FeatureUse;
  at: Date;
  /** Set by the meter: past the key's request-log rate, so counted in the rollups but given no usage_events row. */
  unlogged?: boolean;
};

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
 * Upper bounds (ms) of the latency buckets kept per key, day and route; one more bucket counts
 * everything slower. Enough resolution for p50/p95 on a dashboard without keeping every latency.
 */
export const LATENCY_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000] as const;

export function latencyBucket(ms: number): number {
  let i = 0;
  while (i < LATENCY_BUCKETS_MS.length && !(ms <= LATENCY_BUCKETS_MS[i]!)) i++;
  return i;
}

/**
 * One row of usage: a key's requests on one UTC day to one route, as the meter rolls events up and
 * writes them to usage_daily. Every usage view (GET /v1/usage, the portal's dashboards) reads these
 * through `readUsage` (reader.ts) and groups them by what was recorded: key, day, area, route.
 */
export type UsageRow = {
  keyId: string;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  route: string;
  /** The scope of the area that served the route, as the guard recorded it. */
  area: string;
  requests: number;
  /** Every status below 400. */
  ok: number;
  /** Every 4xx, 429 included (also counted in `limited`). */
  client: number;
  server: number;
  limited: number;
  /** The sum of the requests' latencies, in ms. */
  latency: number;
  bytesIn: number;
  bytesOut: number;
  tokens: number;
  /** Requests per latency bucket (LATENCY_BUCKETS_MS, one more for anything slower). */
  latencyHist: number[];
};

/** What a usage row counts, without the key, day, route and area it counts for. */
export type UsageSums = Omit<UsageRow, "keyId" | "day" | "route" | "area">;

/** Nothing counted yet, with the given latency histogram to add into. */
export function noUsage(latencyHist: number[]): UsageSums {
  return {
    requests: 0,
    ok: 0,
    client: 0,
    server: 0,
    limited: 0,
    latency: 0,
    bytesIn: 0,
    bytesOut: 0,
    tokens: 0,
    latencyHist,
  };
}

/** Calls to one model of a provider by a key on one UTC day (usage_daily_model); model "" when none was named. */
export type ModelUsageRow = ProviderUsageRow & { model: string };

/** Calls to one language-model provider by a key on one UTC day (usage_daily_provider). */
export type ProviderUsageRow = {
  keyId: string;
  day: string;
  provider: string;
  requests: number;
  prompt: number;
  completion: number;
};

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
      await this.write(events);
      this.written += events.length;
      settled.count += events.length;
      return;
    } catch (err) {
      if (!(await this.databaseAnswers())) throw err;
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

  private async databaseAnswers(): Promise<boolean> {
    try {
      await this.db.prisma.$queryRawUnsafe("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }

  private async write(batch: UsageEventInput[]): Promise<void> {
    const events = batch.map(storableEvent);
    const rows = events.filter((e) => !e.unlogged);
    const rollups = rollUp(events);
    const providers = rollUpProviders(events);
    const models = rollUpModels(events);
    const features = rollUpFeatures(events);
    const lastUsed = new Map<string, Date>();
    for (const e of events) if ((lastUsed.get(e.keyId)?.getTime() ?? 0) < e.at.getTime()) lastUsed.set(e.keyId, e.at);

    // Every statement takes column arrays (unnest): a fixed number of parameters however many rows, so a
    // flush of many keys' rollups never meets PostgreSQL's 65,535-parameter ceiling; and on the driver, not
    // Prisma, whose array parameters cost 4x the statement itself.
    await this.db.transaction(async (tx) => {
      // ~50x cheaper on PGlite than a createMany of the same rows (measured: 500 rows in 11 ms against 500 ms).
      if (rows.length)
        await tx.query(
          `INSERT INTO usage_events (key_id, request_id, method, route, area, status, latency_ms, bytes_in, bytes_out,
             provider, model, prompt_tokens, completion_tokens, created_at)
           SELECT k, r, m, rt, a, s, l, bi, bo, p, md, pt, ct, (c AT TIME ZONE 'UTC')::timestamp(3)
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::int[],
             $10::text[], $11::text[], $12::int[], $13::int[], $14::timestamptz[]) AS t(k, r, m, rt, a, s, l, bi, bo, p, md, pt, ct, c)`,
          columns(rows, [
            (e) => e.keyId,
            (e) => e.requestId,
            (e) => e.method,
            (e) => e.route,
            (e) => e.area,
            (e) => e.status,
            (e) => Math.round(e.latencyMs),
            (e) => e.bytesIn,
            (e) => e.bytesOut,
            (e) => e.provider ?? null,
            (e) => e.model ?? null,
            (e) => e.promptTokens ?? null,
            (e) => e.completionTokens ?? null,
            (e) => e.at.toISOString(),
          ]),
        );
      await tx.query(
        `INSERT INTO usage_daily (key_id, day, route, area, requests, status_2xx, status_4xx, status_5xx, status_429, latency_ms_sum, bytes_in, bytes_out, tokens, latency_hist)
         SELECT k, d::date, r, a, n, s2, s4, s5, s429, l, bi, bo, t, h::int[]
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::int[], $9::int[],
           $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], $14::text[]) AS v(k, d, r, a, n, s2, s4, s5, s429, l, bi, bo, t, h)
         ON CONFLICT (key_id, day, route) DO UPDATE SET
           -- A route is served by one area; should a later release move it, today's row follows it.
           area = EXCLUDED.area,
           requests = usage_daily.requests + EXCLUDED.requests,
           status_2xx = usage_daily.status_2xx + EXCLUDED.status_2xx,
           status_4xx = usage_daily.status_4xx + EXCLUDED.status_4xx,
           status_5xx = usage_daily.status_5xx + EXCLUDED.status_5xx,
           status_429 = usage_daily.status_429 + EXCLUDED.status_429,
           latency_ms_sum = usage_daily.latency_ms_sum + EXCLUDED.latency_ms_sum,
           bytes_in = usage_daily.bytes_in + EXCLUDED.bytes_in,
           bytes_out = usage_daily.bytes_out + EXCLUDED.bytes_out,
           tokens = usage_daily.tokens + EXCLUDED.tokens,
           -- Bucket-wise sum; rows written before the histogram existed hold an empty array (NULLs in the zip).
           latency_hist = ARRAY(SELECT COALESCE(a, 0) + COALESCE(b, 0)
             FROM unnest(COALESCE(usage_daily.latency_hist, '{}'), EXCLUDED.latency_hist) WITH ORDINALITY AS t(a, b, n) ORDER BY n)`,
        columns(rollups, [
          (r) => r.keyId,
          (r) => r.day,
          (r) => r.route,
          (r) => r.area,
          (r) => r.requests,
          (r) => r.ok,
          (r) => r.client,
          (r) => r.server,
          (r) => r.limited,
          (r) => r.latency,
          (r) => r.bytesIn,
          (r) => r.bytesOut,
          (r) => r.tokens,
          // An int[] per row travels as its literal: unnest would flatten a two-dimensional array.
          (r) => `{${r.latencyHist.join(",")}}`,
        ]),
      );
      if (providers.length)
        await tx.query(
          `INSERT INTO usage_daily_provider (key_id, day, provider, requests, prompt_tokens, completion_tokens)
           SELECT k, d::date, p, n, pt, ct FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::bigint[], $6::bigint[])
             AS v(k, d, p, n, pt, ct)
           ON CONFLICT (key_id, day, provider) DO UPDATE SET
             requests = usage_daily_provider.requests + EXCLUDED.requests,
             prompt_tokens = usage_daily_provider.prompt_tokens + EXCLUDED.prompt_tokens,
             completion_tokens = usage_daily_provider.completion_tokens + EXCLUDED.completion_tokens`,
          columns(providers, [
            (r) => r.keyId,
            (r) => r.day,
            (r) => r.provider,
            (r) => r.requests,
            (r) => r.prompt,
            (r) => r.completion,
          ]),
        );
      if (models.length)
        await tx.query(
          `INSERT INTO usage_daily_model (key_id, day, provider, model, requests, prompt_tokens, completion_tokens)
           SELECT k, d::date, p, m, n, pt, ct
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::bigint[], $7::bigint[]) AS v(k, d, p, m, n, pt, ct)
           ON CONFLICT (key_id, day, provider, model) DO UPDATE SET
             requests = usage_daily_model.requests + EXCLUDED.requests,
             prompt_tokens = usage_daily_model.prompt_tokens + EXCLUDED.prompt_tokens,
             completion_tokens = usage_daily_model.completion_tokens + EXCLUDED.completion_tokens`,
          columns(models, [
            (r) => r.keyId,
            (r) => r.day,
            (r) => r.provider,
            (r) => r.model,
            (r) => r.requests,
            (r) => r.prompt,
            (r) => r.completion,
          ]),
        );
      if (features.length)
        await tx.query(
          `INSERT INTO usage_daily_feature (key_id, day, provider, feature, uses)
           SELECT k, d::date, p, f, n FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
             AS v(k, d, p, f, n)
           ON CONFLICT (key_id, day, provider, feature) DO UPDATE SET uses = usage_daily_feature.uses + EXCLUDED.uses`,
          columns(features, [(r) => r.keyId, (r) => r.day, (r) => r.provider, (r) => r.feature, (r) => r.uses]),
        );
      await tx.query(
        // GREATEST ignores NULL, so a key's first use sets the column too.
        `UPDATE api_keys SET last_used_at = GREATEST(api_keys.last_used_at, (v.at AT TIME ZONE 'UTC')::timestamp(3))
         FROM unnest($1::text[], $2::timestamptz[]) AS v(id, at) WHERE api_keys.id = v.id`,
        [[...lastUsed.keys()], [...lastUsed.values()].map((at) => at.toISOString())],
      );
    });
  }
}

/** One array per column, in the order of `pick`: the parameters of an unnest(...) statement. */
function columns<T>(rows: readonly T[], pick: ReadonlyArray<(row: T) => unknown>): unknown[][] {
  return pick.map((column) => rows.map(column));
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

/** The largest value of PostgreSQL's `int`, the type of usage_events' token columns. */
const INT_MAX = 2_147_483_647;

/** A token count as a provider reported it, if the int column can hold it: whole and 0..INT_MAX. */
const storableCount = (n: number | undefined) =>
  n === undefined || (Number.isInteger(n) && n >= 0 && n <= INT_MAX) ? n : undefined;

/**
 * The event made storable. Text: PostgreSQL refuses NUL, and a lone surrogate is not UTF-8.
 * Validation keeps both out of request input, but a model or provider name can also come from an
 * upstream's answer. Token counts come from the provider too: one the column cannot hold (negative,
 * fractional, past int) is left out rather than costing the event. Copies only an event that needs it.
 */
export function storableEvent(e: UsageEventInput): UsageEventInput {
  const countsFit =
    storableCount(e.promptTokens) === e.promptTokens && storableCount(e.completionTokens) === e.completionTokens;
  if (
    countsFit &&
    ![e.keyId, e.requestId, e.method, e.route, e.area, e.provider ?? "", e.model ?? ""].some(isUnsafeText)
  )
    return e;
  const safe = (text: string | undefined) => (text === undefined ? undefined : toSafeText(text));
  return {
    ...e,
    keyId: toSafeText(e.keyId),
    requestId: toSafeText(e.requestId),
    method: toSafeText(e.method),
    route: toSafeText(e.route),
    area: toSafeText(e.area),
    provider: safe(e.provider),
    model: safe(e.model),
    promptTokens: storableCount(e.promptTokens),
    completionTokens: storableCount(e.completionTokens),
  };
}

const DAY_MS = 86_400_000;

/**
 * Finds the row of an event's group, by key, UTC day and one more field, making it on first sight.
 * A flush rolls up every event of the last second (15,000 under load) in one synchronous pass, so the
 * group is found without formatting a date per event (the day is a number; its YYYY-MM-DD is made once
 * a group), and a run of events of the same group, the common case, skips the lookup altogether.
 */
function grouper<R>(make: (e: UsageEventInput, day: string) => R, field: (e: UsageEventInput) => string) {
  const rows = new Map<string, R>();
  let last: R | undefined;
  let lastKey = "";
  let lastField = "";
  let lastDay = -1;
  return {
    rows,
    of(e: UsageEventInput): R {
      const day = Math.floor(e.at.getTime() / DAY_MS);
      const f = field(e);
      if (last !== undefined && day === lastDay && e.keyId === lastKey && f === lastField) return last;
      const id = `${e.keyId}\u0000${day}\u0000${f}`;
      let r = rows.get(id);
      if (r === undefined) {
        r = make(e, new Date(day * DAY_MS).toISOString().slice(0, 10));
        rows.set(id, r);
      }
      last = r;
      lastKey = e.keyId;
      lastField = f;
      lastDay = day;
      return r;
    },
  };
}

/**
 * Sums events per key, UTC day and route (a route has one area): the rows written to usage_daily,
 * which every usage view reads (lib/usage/reader.ts) instead of raw events.
 */
export function rollUp(events: readonly UsageEventInput[]): UsageRow[] {
  const groups = grouper<UsageRow>(
    (e, day) => ({
      keyId: e.keyId,
      day,
      route: e.route,
      area: e.area,
      ...noUsage(new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0)),
    }),
    (e) => e.route,
  );
  for (const e of events) {
    const r = groups.of(e);
    r.requests += 1;
    if (e.status < 400) r.ok += 1;
    else if (e.status < 500) r.client += 1;
    else r.server += 1;
    if (e.status === 429) r.limited += 1;
    r.latency += Math.round(e.latencyMs);
    r.bytesIn += e.bytesIn;
    r.bytesOut += e.bytesOut;
    r.tokens += (e.promptTokens ?? 0) + (e.completionTokens ?? 0);
    r.latencyHist[latencyBucket(e.latencyMs)]! += 1;
  }
  return [...groups.rows.values()];
}

/** Provider calls and their tokens per key and UTC day (only events that named a provider). */
export function rollUpProviders(events: readonly UsageEventInput[]): ProviderUsageRow[] {
  const groups = grouper<ProviderUsageRow>(
    (e, day) => ({ keyId: e.keyId, day, provider: e.provider!, requests: 0, prompt: 0, completion: 0 }),
    (e) => e.provider!,
  );
  for (const e of events) {
    if (!e.provider) continue;
    const r = groups.of(e);
    r.requests += 1;
    r.prompt += e.promptTokens ?? 0;
    r.completion += e.completionTokens ?? 0;
  }
  return [...groups.rows.values()];
}

/** Provider calls and their tokens per key, UTC day and model (only events that named a provider). */
export function rollUpModels(events: readonly UsageEventInput[]): ModelUsageRow[] {
  const groups = grouper<ModelUsageRow>(
    (e, day) => ({
      keyId: e.keyId,
      day,
      provider: e.provider!,
      model: e.model ?? "",
      requests: 0,
      prompt: 0,
      completion: 0,
    }),
    (e) => `${e.provider}\u0000${e.model ?? ""}`,
  );
  for (const e of events) {
    if (!e.provider) continue;
    const r = groups.of(e);
    r.requests += 1;
    r.prompt += e.promptTokens ?? 0;
    r.completion += e.completionTokens ?? 0;
  }
  return [...groups.rows.values()];
}

/** Uses of one provider feature billed beyond tokens by a key on one UTC day (usage_daily_feature). */
export type FeatureUsageRow = { keyId: string; day: string; provider: string; feature: string; uses: number };

/** Feature uses per key, UTC day, provider and feature (only events that named a provider). */
export function rollUpFeatures(events: readonly UsageEventInput[]): FeatureUsageRow[] {
  const rows = new Map<string, FeatureUsageRow>();
  for (const e of events) {
    if (!e.provider || !e.features) continue;
    const day = e.at.toISOString().slice(0, 10);
    for (const [feature, uses] of Object.entries(e.features)) {
      const id = `${e.keyId}\u0000${day}\u0000${e.provider}\u0000${feature}`;
      const row = rows.get(id);
      if (row) row.uses += uses;
      else rows.set(id, { keyId: e.keyId, day, provider: e.provider, feature, uses });
    }
  }
  return [...rows.values()];
}

/**
 * An estimate of the latency under which `q` (0..1) of the requests in a histogram finished: the rank is
 * placed linearly between its bucket's bounds (as Prometheus' histogram_quantile does), so 42 calls under
 * 70 ms and one of 4 s give a p95 near 70 ms rather than a bucket's upper bound. The last bucket has no
 * upper bound, so a rank there reads as its lower bound (30 s, shown as "over 30 s").
 */
export function latencyPercentile(hist: number[], q: number): number | null {
  const total = hist.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    const n = hist[i] ?? 0;
    if (n > 0 && seen + n >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BUCKETS_MS[i - 1]!;
      const upper = LATENCY_BUCKETS_MS[i];
      return upper === undefined ? lower : Math.round(lower + ((rank - seen) / n) * (upper - lower));
    }
    seen += n;
  }
  return LATENCY_BUCKETS_MS[LATENCY_BUCKETS_MS.length - 1]!;
}
