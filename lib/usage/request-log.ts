import type { Database } from "../db/client.ts";
import { Prisma, type UsageEvent } from "../db/generated/client.ts";
import { attemptsOfColumn, type RequestAttempt } from "./request-attempts.ts";
import type { GuardrailDecision } from "../guardrails/decision.ts";
import { logSafeBodies, type RequestBodies } from "./body-capture.ts";
import type { RequestTags } from "./request-tags.ts";
import type { CacheUse, UsageEventInput } from "./usage-event.ts";

/**
 * Status classes as the usage dashboards stack them, disjoint: "2xx" is every status below 400, "4xx"
 * every client error but 429, which is "429" alone.
 */
export const STATUS_CLASSES = ["2xx", "4xx", "429", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** One keyed request as the meter recorded it: a usage_events row, or an event not written yet. */
export type RequestLogEntry = {
  /** The row's id (a bigint, as text); null for an event this instance has recorded but not yet written. */
  id: string | null;
  keyId: string;
  /** The response's X-Request-Id; `<id>:<agent>` for a research run's model calls, `<task>:<item>` for batch items. */
  requestId: string;
  method: string;
  route: string;
  area: string;
  status: number;
  latencyMs: number;
  bytesIn: number;
  bytesOut: number;
  provider: string | null;
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  at: Date;
  /** Each attempt of its model calls, when one was retried, fell over or skipped a deployment; else null. */
  attempts: RequestAttempt[] | null;
  /** The W3C trace id of the request's span, when tracing was on; else null. */
  traceId: string | null;
  /** What the response cache did, when the request asked for it; else null. */
  cache: CacheUse | null;
  /** The message a failed request's caller was answered with; else null. */
  error: string | null;
  userAgent: string | null;
  /** The caller's x-gateway-metadata tags; else null. */
  tags: RequestTags | null;
  /** What the key's guardrail policy decided on the prompt and the answer; else null. */
  guardrails: GuardrailDecision[] | null;
};

/** Where a page ends: entries strictly after it in newest-first order. `id` null follows an unwritten event. */
export type RequestLogCursor = { at: Date; id: bigint | null };

export type RequestLogQuery = {
  /** The keys whose requests are read; absent, every key's (the operator's view). */
  keyIds?: readonly string[];
  status?: StatusClass;
  area?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** Exact match. */
  requestId?: string;
  /** Requests tagged `name` with `value`. */
  tag?: { name: string; value: string };
  /** Only requests a guardrail policy decided something on. */
  guarded?: boolean;
  cursor?: RequestLogCursor;
  /** Entries per page, at most MAX_PAGE (DEFAULT_PAGE when absent). */
  limit?: number;
  /** Events recorded here and not yet written (Meter.pendingFor), so a request made a second ago is found. */
  pending?: readonly UsageEventInput[];
};

export type RequestLogPage = { entries: RequestLogEntry[]; next: RequestLogCursor | null };

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

/** How far around a request its own model calls can be recorded: they run inside it, give or take clocks. */
const CALL_SLACK_MS = 1000;

// Written only by the meter, from a CacheUse: read back as one.
const cacheOfColumn = (value: Prisma.JsonValue | null): CacheUse | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as unknown as CacheUse) : null;

// Written only by the meter, from RequestTags.
const tagsOfColumn = (value: Prisma.JsonValue | null): RequestTags | null =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as RequestTags) : null;

function fromRow(r: UsageEvent): RequestLogEntry {
  return {
    id: r.id.toString(),
    keyId: r.keyId,
    requestId: r.requestId,
    method: r.method,
    route: r.route,
    area: r.area,
    status: r.status,
    latencyMs: r.latencyMs,
    bytesIn: r.bytesIn,
    bytesOut: r.bytesOut,
    provider: r.provider,
    model: r.model,
    promptTokens: r.promptTokens,
    completionTokens: r.completionTokens,
    at: r.createdAt,
    attempts: attemptsOfColumn(r.attempts),
    traceId: r.traceId,
    cache: cacheOfColumn(r.cache),
    error: r.error,
    userAgent: r.userAgent,
    tags: tagsOfColumn(r.tags),
    guardrails: Array.isArray(r.guardrails) ? (r.guardrails as unknown as GuardrailDecision[]) : null,
  };
}

function fromPending(e: UsageEventInput): RequestLogEntry {
  return {
    id: null,
    keyId: e.keyId,
    requestId: e.requestId,
    method: e.method,
    route: e.route,
    area: e.area,
    status: e.status,
    // Rounded and cut to the millisecond as the meter writes them, so an entry reads the same once written.
    latencyMs: Math.round(e.latencyMs),
    bytesIn: e.bytesIn,
    bytesOut: e.bytesOut,
    provider: e.provider ?? null,
    model: e.model ?? null,
    promptTokens: e.promptTokens ?? null,
    completionTokens: e.completionTokens ?? null,
    at: new Date(e.at.getTime()),
    attempts: e.attempts ?? null,
    traceId: e.traceId ?? null,
    cache: e.cache ?? null,
    error: e.error ?? null,
    userAgent: e.userAgent ?? null,
    tags: e.tags ?? null,
    guardrails: e.guardrails?.length ? e.guardrails : null,
  };
}

export function statusClassOf(status: number): StatusClass {
  if (status < 400) return "2xx";
  if (status === 429) return "429";
  return status < 500 ? "4xx" : "5xx";
}

function statusWhere(c: StatusClass): Prisma.UsageEventWhereInput {
  switch (c) {
    case "2xx":
      return { status: { lt: 400 } };
    case "4xx":
      return { status: { gte: 400, lt: 500, not: 429 } };
    case "429":
      return { status: 429 };
    case "5xx":
      return { status: { gte: 500 } };
  }
}

/**
 * Newest first: by time, then id; an unwritten event (no id yet) before written rows of the same
 * millisecond, since it was written, if at all, after them.
 */
function newerFirst(a: RequestLogEntry, b: RequestLogEntry): number {
  const byTime = b.at.getTime() - a.at.getTime();
  if (byTime !== 0) return byTime;
  if (a.id === null || b.id === null) return (a.id === null ? 0 : 1) - (b.id === null ? 0 : 1);
  const [x, y] = [BigInt(a.id), BigInt(b.id)];
  return x === y ? 0 : x > y ? -1 : 1;
}

/** Whether the entry comes after the cursor in newest-first order. */
function afterCursor(e: RequestLogEntry, c: RequestLogCursor): boolean {
  const t = e.at.getTime();
  const ct = c.at.getTime();
  if (t !== ct) return t < ct;
  if (c.id === null) return e.id !== null;
  return e.id !== null && BigInt(e.id) < c.id;
}

function matches(e: RequestLogEntry, q: RequestLogQuery, keys: Set<string> | undefined): boolean {
  return (
    (!keys || keys.has(e.keyId)) &&
    (!q.status || statusClassOf(e.status) === q.status) &&
    (!q.area || e.area === q.area) &&
    (!q.from || e.at >= q.from) &&
    (!q.to || e.at < q.to) &&
    (!q.requestId || e.requestId === q.requestId) &&
    (!q.tag || hasTag(e.tags, q.tag)) &&
    (!q.guarded || e.guardrails !== null) &&
    (!q.cursor || afterCursor(e, q.cursor))
  );
}

const hasTag = (tags: RequestTags | null, tag: { name: string; value: string }): boolean =>
  tags !== null && Object.hasOwn(tags, tag.name) && tags[tag.name] === tag.value;

/** The same request as read from the table: what tells an unwritten event from its row once it is written. */
const sameRequest = (a: RequestLogEntry, b: RequestLogEntry) =>
  a.keyId === b.keyId &&
  a.requestId === b.requestId &&
  a.at.getTime() === b.at.getTime() &&
  a.route === b.route &&
  a.status === b.status;

/** The cursor that continues after `e`. */
export const cursorAfter = (e: RequestLogEntry): RequestLogCursor => ({
  at: e.at,
  id: e.id === null ? null : BigInt(e.id),
});

export const pageSize = (limit: number | undefined) => Math.min(Math.max(1, limit ?? DEFAULT_PAGE), MAX_PAGE);

function whereOf(q: RequestLogQuery): Prisma.UsageEventWhereInput {
  const and: Prisma.UsageEventWhereInput[] = [];
  if (q.keyIds) and.push({ keyId: { in: [...q.keyIds] } });
  if (q.status) and.push(statusWhere(q.status));
  if (q.area) and.push({ area: q.area });
  if (q.requestId) and.push({ requestId: q.requestId });
  if (q.tag) and.push({ tags: { path: [q.tag.name], equals: q.tag.value } });
  // `guardrails IS NOT NULL`: the meter writes SQL NULL where nothing fired, so a partial index finds the rest.
  if (q.guarded) and.push({ guardrails: { not: Prisma.DbNull } });
  if (q.from) and.push({ createdAt: { gte: q.from } });
  if (q.to) and.push({ createdAt: { lt: q.to } });
  const c = q.cursor;
  if (c)
    and.push(
      c.id === null
        ? { createdAt: { lte: c.at } }
        : { OR: [{ createdAt: { lt: c.at } }, { createdAt: c.at, id: { lt: c.id } }] },
    );
  return { AND: and };
}

/** Pending events that will get a row: one past its key's log rate is in the totals only, never in the log. */
const loggedOf = (pending: readonly UsageEventInput[] = []) => pending.filter((e) => !e.unlogged);

/**
 * One page of the request log, newest first, filtered; keyset-paged on (created_at, id) so a page costs
 * the same however deep it is and rows written meanwhile never shift it. Pending events that match are
 * merged in by time (an event written between the two reads is shown once).
 */
export async function listRequests(db: Database, q: RequestLogQuery): Promise<RequestLogPage> {
  const limit = pageSize(q.limit);
  // Pending first: an event written after this snapshot is then in the table read next, not lost between them.
  const keys = q.keyIds ? new Set(q.keyIds) : undefined;
  const pending = loggedOf(q.pending)
    .map(fromPending)
    .filter((e) => matches(e, q, keys));
  const rows = await db.prisma.usageEvent.findMany({
    where: whereOf(q),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const stored = rows.map(fromRow);
  const merged = [...pending.filter((p) => !stored.some((s) => sameRequest(p, s))), ...stored].sort(newerFirst);
  const entries = merged.slice(0, limit);
  return { entries, next: merged.length > limit ? cursorAfter(entries[limit - 1]!) : null };
}

export type RequestDetail = {
  /** Every entry recorded under the id, newest first (one, unless a client sent the same X-Request-Id twice). */
  entries: RequestLogEntry[];
  /** The model calls a research run made for the request (`<id>:<agent>`), oldest first. */
  calls: RequestLogEntry[];
};

/** A request by its X-Request-Id, among `keyIds` (absent: every key), with the calls made for it. */
export async function findRequest(
  db: Database,
  requestId: string,
  scope: Pick<RequestLogQuery, "keyIds" | "pending"> = {},
): Promise<RequestDetail> {
  const { entries } = await listRequests(db, { ...scope, requestId, limit: MAX_PAGE });
  if (entries.length === 0) return { entries, calls: [] };
  // A run's calls are recorded under its key while it runs: the request's own index lookup finds the
  // window, and the (key_id, created_at) index reads it; the id's prefix is checked here, exactly.
  const prefix = `${requestId}:`;
  const windows = entries.map((e) => ({
    keyId: e.keyId,
    createdAt: {
      gte: new Date(e.at.getTime() - e.latencyMs - CALL_SLACK_MS),
      lte: new Date(e.at.getTime() + CALL_SLACK_MS),
    },
  }));
  const rows = await db.prisma.usageEvent.findMany({
    where: { OR: windows, requestId: { startsWith: prefix } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: MAX_PAGE,
  });
  const keys = new Set(entries.map((e) => e.keyId));
  const stored = rows.map(fromRow).filter((r) => r.requestId.startsWith(prefix));
  const pending = loggedOf(scope.pending)
    .map(fromPending)
    .filter((e) => keys.has(e.keyId) && e.requestId.startsWith(prefix))
    .filter((p) => !stored.some((s) => sameRequest(p, s)));
  return { entries, calls: [...stored, ...pending].sort((a, b) => newerFirst(b, a)) };
}

/**
 * A request's kept bodies (REQUEST_LOG_BODIES) among the given keys' requests: recorded here and not yet
 * written, or written; null when none were kept (the setting was off, or the row has expired).
 */
export async function findBodies(
  db: Database,
  requestId: string,
  keyIds: readonly string[],
  pending: readonly UsageEventInput[] = [],
): Promise<RequestBodies | null> {
  const waiting = pending.findLast((e) => e.requestId === requestId && e.bodies && keyIds.includes(e.keyId));
  if (waiting?.bodies) return logSafeBodies(waiting.bodies);
  const row = await db.prisma.requestBody.findFirst({
    where: { requestId, keyId: { in: [...keyIds] } },
    orderBy: { id: "desc" },
  });
  return row && { request: row.request, response: row.response };
}
