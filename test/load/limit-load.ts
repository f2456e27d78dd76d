import pg from "pg";
import { Agent, request } from "undici";
import { percentile } from "../../bench/support.ts";
import type { Database } from "../../lib/db/client.ts";
import { createKey } from "../../lib/gateway/keys/key-changes.ts";
import { bucketOf, carriedOver } from "../../lib/gateway/runtime/limits/decision.ts";
import type { Limits } from "../../lib/gateway/runtime/limits/windows.ts";

/**
 * The limits load (`npm run test:load`, its bounded twin in `npm test`, and bench/instances.ts): many
 * keys with small limits driven at saturation through several instances, then every limit checked
 * against what the instances stored in PostgreSQL.
 */

/** Each key has one small limit, the one its group tests; the other two are out of reach. */
export const SMALL = { day: 20, minute: 15, concurrency: 2 } as const;
const ROOMY: Limits = { day: 1_000_000, minute: 100_000, concurrency: 1000 };
/** How long the slow provider holds a call, so a concurrency key's calls overlap at the limit. */
export const HOLD_MS = 150;
/** Callers per concurrency key: more than its limit, so the limit is what stops them. */
const CALLERS_PER_SLOW_KEY = SMALL.concurrency + 2;

export type LoadKey = { id: string; key: string; name: string; kind: keyof typeof SMALL; limits: Limits };

/** Every tenth key is a concurrency key (its calls are slow), the others alternate day and minute. */
export async function createLoadKeys(db: Database, count: number): Promise<LoadKey[]> {
  const keys: LoadKey[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i % 10 === 9 ? "concurrency" : i % 2 ? "minute" : "day";
    const limits = { ...ROOMY, [kind]: SMALL[kind] };
    const name = `load-${kind}-${i}`;
    const created = await createKey(db, { name, ...limits }, "load-test");
    keys.push({ id: created.id, key: created.key, name, kind, limits });
  }
  return keys;
}

export type LoadRun = {
  seconds: number;
  /** Answers the client received, by key id (every status). */
  answered: Map<string, number>;
  statuses: Map<number, number>;
  latenciesMs: number[];
  /** Requests that got no answer (a reset, a refused connection). */
  networkErrors: number;
};

/**
 * Drives the keys for `seconds` (longer, up to three times that, until every key has been refused once): `connections` callers cycle through the day and minute keys on
 * GET /v1/key, and each concurrency key has callers of its own on POST /v1/chat/completions (held by
 * the slow provider). Every caller waits for its answer before the next request and stops issuing at
 * the deadline, so each request sent is either answered or counted as a network error.
 */
export async function runLoad(url: string, keys: LoadKey[], seconds: number, connections: number): Promise<LoadRun> {
  const slow = keys.filter((k) => k.kind === "concurrency");
  const fast = keys.filter((k) => k.kind !== "concurrency");
  const agent = new Agent({ connections: connections + slow.length * CALLERS_PER_SLOW_KEY });
  const run: LoadRun = { seconds, answered: new Map(), statuses: new Map(), latenciesMs: [], networkErrors: 0 };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  // A slow machine gets more time, up to a cap, until every key has met its limit: the checks need that.
  const cap = started + 3 * seconds * 1000;
  const refused = new Set<string>();
  let next = 0;

  const call = async (k: LoadKey) => {
    const started = performance.now();
    try {
      const res =
        k.kind === "concurrency"
          ? await request(`${url}/v1/chat/completions`, {
              dispatcher: agent,
              method: "POST",
              headers: { authorization: `Bearer ${k.key}`, "content-type": "application/json" },
              body: JSON.stringify({ model: "xai/grok-4-fast", messages: [{ role: "user", content: k.name }] }),
            })
          : await request(`${url}/v1/key`, { dispatcher: agent, headers: { "x-api-key": k.key } });
      await res.body.text();
      run.latenciesMs.push(performance.now() - started);
      run.answered.set(k.id, (run.answered.get(k.id) ?? 0) + 1);
      run.statuses.set(res.statusCode, (run.statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 429) refused.add(k.id);
    } catch {
      run.networkErrors++;
    }
  };
  const caller = async (pick: () => LoadKey) => {
    const going = () => {
      const now = performance.now();
      return now < deadline || (refused.size < keys.length && now < cap);
    };
    while (going()) await call(pick());
  };
  await Promise.all([
    ...Array.from({ length: connections }, () => caller(() => fast[next++ % fast.length]!)),
    ...slow.flatMap((k) => Array.from({ length: CALLERS_PER_SLOW_KEY }, () => caller(() => k))),
  ]);
  await agent.close();
  run.seconds = (performance.now() - started) / 1000;
  return run;
}

/**
 * Waits, when fewer than `seconds` are left in this UTC minute, for the next one: the minute keys reach
 * their limit within a few seconds, and the check that they got exactly it reads their first minute.
 */
export async function startWithRoomInMinute(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

export type Findings = {
  seconds: number;
  requests: number;
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  status5xx: number;
  networkErrors: number;
  stored: number;
  /** Keys whose stored usage rows differ from the answers their client received. */
  unmatched: string[];
  /** Every moment a key was let past one of its limits. */
  overLimit: string[];
  /** Admitted / limit per group: the day (whole run), the minute (first minute), concurrency (most in flight). */
  accuracy: Record<keyof typeof SMALL, { min: number; max: number }>;
};

/** A usage row as the checks read it: `at` in epoch ms. */
export type StoredEvent = { key_id: string; status: number; at: number };

/** Reads what the instances stored (after they drained) and checks every key's limits against it. */
export async function checkStoredUsage(
  databaseUrl: string,
  keys: LoadKey[],
  run: LoadRun,
  maxInFlight: Map<string, number>,
): Promise<Findings> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client
    .query<StoredEvent>(
      `SELECT key_id, status, extract(epoch FROM created_at) * 1000 AS at FROM usage_events
       WHERE key_id = ANY($1) ORDER BY created_at, id`,
      [keys.map((k) => k.id)],
    )
    .finally(() => client.end());
  return judge(keys, rows, run, maxInFlight);
}

/** The checks themselves, on stored rows in stored order (oldest first). */
export function judge(keys: LoadKey[], rows: StoredEvent[], run: LoadRun, maxInFlight: Map<string, number>): Findings {
  const byKey = groupBy(rows, (r) => r.key_id);

  const overLimit: string[] = [];
  const unmatched: string[] = [];
  const ratios: Record<keyof typeof SMALL, number[]> = { day: [], minute: [], concurrency: [] };
  for (const k of keys) {
    const events = byKey.get(k.id) ?? [];
    const answered = run.answered.get(k.id) ?? 0;
    if (events.length !== answered) unmatched.push(`${k.name}: ${events.length} stored, ${answered} answered`);
    const admitted = events.filter((e) => e.status !== 429).map((e) => Number(e.at));
    overLimit.push(...minuteViolations(k, admitted), ...dayViolations(k, admitted));
    const inFlight = maxInFlight.get(k.name) ?? 0;
    if (inFlight > k.limits.concurrency)
      overLimit.push(`${k.name}: ${inFlight} in flight, limit ${k.limits.concurrency}`);
    if (k.kind === "day") ratios.day.push(admitted.length / k.limits.day);
    if (k.kind === "minute") {
      const first = bucketOf("minute", admitted[0] ?? 0);
      ratios.minute.push(admitted.filter((t) => bucketOf("minute", t) === first).length / k.limits.minute);
    }
    if (k.kind === "concurrency") ratios.concurrency.push(inFlight / k.limits.concurrency);
  }
  const requests = [...run.answered.values()].reduce((a, b) => a + b, 0);
  const range = (xs: number[]) => ({ min: Math.min(...xs), max: Math.max(...xs) });
  return {
    seconds: run.seconds,
    requests,
    throughput: requests / run.seconds,
    p50Ms: percentile(run.latenciesMs, 50),
    p99Ms: percentile(run.latenciesMs, 99),
    status5xx: [...run.statuses].filter(([s]) => s >= 500).reduce((sum, [, n]) => sum + n, 0),
    networkErrors: run.networkErrors,
    stored: rows.length,
    unmatched,
    overLimit,
    accuracy: { day: range(ratios.day), minute: range(ratios.minute), concurrency: range(ratios.concurrency) },
  };
}

/**
 * Replays a key's admissions in stored order against the sliding minute: each needed its bucket's
 * earlier admissions plus the previous bucket's carried-over share below the limit. A row's time is
 * when its answer was recorded, a little after its admission, so this reads the carried-over share at
 * its smallest: it can miss an admission over by one at the edge, never flag one that was not.
 */
function minuteViolations(k: LoadKey, admitted: number[]): string[] {
  const counts = new Map<number, number>();
  const found: string[] = [];
  for (const at of admitted) {
    const bucket = bucketOf("minute", at);
    const before = counts.get(bucket) ?? 0;
    const used = before + carriedOver(counts.get(bucket - 1) ?? 0, at);
    if (used >= k.limits.minute)
      found.push(`${k.name}: admitted at ${new Date(at).toISOString()} with ${used} of ${k.limits.minute} used`);
    counts.set(bucket, before + 1);
  }
  return found;
}

function dayViolations(k: LoadKey, admitted: number[]): string[] {
  const perDay = groupBy(admitted, (at) => bucketOf("day", at));
  return [...perDay]
    .filter(([, ats]) => ats.length > k.limits.day)
    .map(([day, ats]) => `${k.name}: ${ats.length} admitted on UTC day ${day}, limit ${k.limits.day}`);
}

// Map.groupBy arrives with Node 21; engines allows 20.
function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** What the load did, for a person: throughput, latency, and the checks' figures. */
export function describe(f: Findings, instances: number): string {
  const fmt = (r: { min: number; max: number }) =>
    r.min === r.max ? r.min.toFixed(2) : `${r.min.toFixed(2)}–${r.max.toFixed(2)}`;
  return [
    `${instances} instances, ${f.seconds.toFixed(1)} s: ${f.requests} requests answered, ${Math.round(f.throughput)} req/s, p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms`,
    `5xx ${f.status5xx}, network errors ${f.networkErrors}, stored usage rows ${f.stored} (answered ${f.requests}), keys unmatched ${f.unmatched.length}`,
    `allowed/limit: day ${fmt(f.accuracy.day)}, minute ${fmt(f.accuracy.minute)}, concurrency (most in flight) ${fmt(f.accuracy.concurrency)}; over a limit: ${f.overLimit.length}`,
  ].join("\n");
}
