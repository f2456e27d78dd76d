import { z } from "zod";
import { priceOf } from "../../agents/cost.ts";
import { type KeySummary, listKeys } from "../../gateway/keys/key-list.ts";
import { SCOPE_AREAS } from "../../gateway/keys/record.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { tagFilter } from "../../usage/request-tags.ts";
import { conversationOf, type Conversation } from "./conversation.ts";
import {
  findBodies,
  findRequest,
  listRequests,
  STATUS_CLASSES,
  type RequestLogCursor,
  type RequestLogEntry,
  type RequestLogQuery,
} from "../../usage/request-log.ts";

/** The areas a request can be recorded under: every key scope, and the key's own routes and the status routes. */
export const LOG_AREAS = [...SCOPE_AREAS, "account", "status"].sort();

/** What a request id can be: Hono's ids ([\w-=], at most 255), with `:<agent>` for a research run's calls. */
const REQUEST_ID = /^[\w=:-]{1,400}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** A day, or a minute as a datetime-local field sends it (seconds allowed), read as UTC. */
const WHEN = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2})(?::\d{2}(?:\.\d{1,3})?)?)?$/;
const PAGE = 50;

const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => {
    const first = Array.isArray(v) ? v[0] : v;
    // An empty field of the filter form means "any".
    return typeof first === "string" && first.trim() !== "" ? first.trim() : undefined;
  }, schema.optional());

/** A day or minute in UTC; `end` reads it as the end of that day or minute (the filter's `to` includes it). */
function instant(value: string, end: boolean): Date | undefined {
  const m = WHEN.exec(value);
  if (!m) return undefined;
  const start = new Date(`${m[1]}T${m[2] ?? "00:00"}:00Z`);
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== m[1]) return undefined;
  return end ? new Date(start.getTime() + (m[2] ? 60_000 : 86_400_000)) : start;
}

const when = (end: boolean) =>
  z.string().transform((v, ctx) => {
    const at = instant(v, end);
    if (!at) {
      ctx.addIssue({
        code: "custom",
        message: "must be a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM), UTC",
      });
      return z.NEVER;
    }
    return { text: v.length > 10 ? v.slice(0, 16) : `${v}T${end ? "23:59" : "00:00"}`, at };
  });

/** The cursor in a link: the last entry's time in ms, and its row id unless it was not yet written. */
export function encodeCursor(c: RequestLogCursor): string {
  return c.id === null ? `${c.at.getTime()}` : `${c.at.getTime()}.${c.id}`;
}

/** A page's cursor as encodeCursor wrote it (checked to have that form first). */
export function decodeCursor(text: string): RequestLogCursor {
  const [ms, id] = text.split(".");
  return { at: new Date(Number(ms)), id: id === undefined ? null : BigInt(id) };
}

const cursor = z
  .string()
  .regex(/^\d{1,15}(\.\d{1,19})?$/, "is not a page of this log: start again from the newest")
  .transform(decodeCursor);

/** The request log's query string: the filter form's fields and the page's cursor, each checked. */
export const requestLogParams = z
  .object({
    id: optional(z.string().regex(REQUEST_ID, "is not a request id (the X-Request-Id of a response)")),
    key: optional(z.string().regex(KEY_ID, "is not a key id")),
    status: optional(z.enum(STATUS_CLASSES, { message: `must be one of ${STATUS_CLASSES.join(", ")}` })),
    area: optional(z.enum([...LOG_AREAS, "unknown"], { message: "is not an area" })),
    tag: optional(
      z
        .string()
        .max(330)
        .transform((text, ctx) => {
          const tag = tagFilter(text);
          if (!tag)
            ctx.addIssue({
              code: "custom",
              message: "is not name:value (a tag the request sent in x-gateway-metadata)",
            });
          return { text, ...tag! };
        }),
    ),
    from: optional(when(false)),
    to: optional(when(true)),
    before: optional(cursor),
  })
  .refine((p) => !p.from || !p.to || p.from.at < p.to.at, { message: "must be after from", path: ["to"] });

export type RequestLogParams = z.infer<typeof requestLogParams>;

const FIELD_NAMES: Record<string, string> = {
  id: "Request id",
  key: "Key",
  status: "Status",
  area: "Area",
  tag: "Tag",
  from: "From",
  to: "To",
  before: "Page",
};

export type ParsedLogParams = { ok: true; params: RequestLogParams } | { ok: false; errors: string[] };

/** The query string read, or every problem with it as a person reads it (never a 500 for a bad link). */
export function parseRequestLogParams(raw: Record<string, string | string[] | undefined>): ParsedLogParams {
  const parsed = requestLogParams.safeParse(raw);
  if (parsed.success) return { ok: true, params: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((i) => `${FIELD_NAMES[String(i.path[0])] ?? "Query"} ${i.message}`),
  };
}

/** The form's values to show again, as the fields hold them. */
export function formValues(
  p: RequestLogParams,
): Record<"id" | "key" | "status" | "area" | "tag" | "from" | "to", string> {
  return {
    id: p.id ?? "",
    key: p.key ?? "",
    status: p.status ?? "",
    area: p.area ?? "",
    tag: p.tag?.text ?? "",
    from: p.from?.text ?? "",
    to: p.to?.text ?? "",
  };
}

/**
 * Estimated USD of a request's tokens at the list prices the research agents use (lib/agents/cost.ts);
 * null where the model has no known price, or the request used no model.
 */
export function estimatedCostUsd(e: Pick<RequestLogEntry, "provider" | "model" | "promptTokens" | "completionTokens">) {
  if (!e.provider || !e.model || (e.promptTokens === null && e.completionTokens === null)) return null;
  const price = priceOf(e.provider, e.model);
  if (!price) return null;
  return ((e.promptTokens ?? 0) * price[0] + (e.completionTokens ?? 0) * price[1]) / 1_000_000;
}

/** Who is looking: a user at their own keys, or the operator at every key. */
export type LogScope = { owner: string } | { operator: true };

export type LogKey = Pick<KeySummary, "id" | "name" | "prefix" | "kind" | "email">;

export type LogRow = RequestLogEntry & { key: LogKey | null; costUsd: number | null };

async function keysInScope(rt: Runtime, scope: LogScope): Promise<LogKey[]> {
  return listKeys(rt.db, "owner" in scope ? scope.owner : undefined);
}

/** The keys' events not written yet, from this instance's meter. */
const pendingOf = (rt: Runtime, keyIds: readonly string[]) => keyIds.flatMap((id) => rt.meter.pendingFor(id));

const withKey = (keys: Map<string, LogKey>) => (e: RequestLogEntry) => ({
  ...e,
  key: keys.get(e.keyId) ?? null,
  costUsd: estimatedCostUsd(e),
});

export type RequestLogView = { keys: LogKey[]; rows: LogRow[]; next: string | null };

/**
 * A page of the log for the scope: a user sees their own keys' requests (another user's key id reads as
 * none), the operator every key's; events this instance has not written yet are included.
 */
export async function requestLogView(
  rt: Runtime,
  scope: LogScope,
  p: RequestLogParams,
  limit = PAGE,
): Promise<RequestLogView> {
  const keys = await keysInScope(rt, scope);
  const byId = new Map(keys.map((k) => [k.id, k]));
  const own = "owner" in scope;
  const keyIds = p.key ? (byId.has(p.key) ? [p.key] : []) : own ? keys.map((k) => k.id) : undefined;
  const query: RequestLogQuery = {
    keyIds,
    status: p.status,
    area: p.area,
    from: p.from?.at,
    to: p.to?.at,
    requestId: p.id,
    ...(p.tag && { tag: { name: p.tag.name, value: p.tag.value } }),
    cursor: p.before,
    limit,
    pending: pendingOf(rt, keyIds ?? keys.map((k) => k.id)),
  };
  const page = await listRequests(rt.db, query);
  return { keys, rows: page.entries.map(withKey(byId)), next: page.next ? encodeCursor(page.next) : null };
}

/** How many of an owner's guarded requests their keys page lists. */
export const RECENT_DECISIONS = 20;

/**
 * The owner's latest requests a guardrail policy decided something on, newest first: their own keys'
 * only, events this instance has not written yet included. The table is read with `guardrails IS NOT
 * NULL` over the owner's key ids, which a partial index serves (0032).
 */
export async function recentGuardrailDecisions(
  rt: Runtime,
  owner: string,
  limit = RECENT_DECISIONS,
): Promise<LogRow[]> {
  const keys = await keysInScope(rt, { owner });
  if (keys.length === 0) return [];
  const keyIds = keys.map((k) => k.id);
  const page = await listRequests(rt.db, { keyIds, guarded: true, limit, pending: pendingOf(rt, keyIds) });
  return page.entries.map(withKey(new Map(keys.map((k) => [k.id, k]))));
}

/** One request by its X-Request-Id, within the scope, with the model calls made for it; null when none is seen. */
export async function requestDetailView(
  rt: Runtime,
  scope: LogScope,
  requestId: string,
): Promise<RequestDetailView | null> {
  if (!REQUEST_ID.test(requestId)) return null;
  const keys = await keysInScope(rt, scope);
  const byId = new Map(keys.map((k) => [k.id, k]));
  const keyIds = "owner" in scope ? keys.map((k) => k.id) : undefined;
  const pending = pendingOf(rt, keyIds ?? keys.map((k) => k.id));
  const detail = await findRequest(rt.db, requestId, { keyIds, pending });
  if (detail.entries.length === 0) return null;
  const bodies = await findBodies(rt.db, requestId, [...new Set(detail.entries.map((e) => e.keyId))], pending);
  return {
    rows: detail.entries.map(withKey(byId)),
    calls: detail.calls.map(withKey(byId)),
    conversation: bodies && conversationOf(bodies),
  };
}

/** A request's page: its rows, the model calls made for it, and its conversation when its bodies were kept. */
export type RequestDetailView = { rows: LogRow[]; calls: LogRow[]; conversation: Conversation | null };

/** The request id of a detail page's path segment, or null when it cannot be one. */
export function requestIdFromPath(segment: string): string | null {
  let id: string;
  try {
    // Ids hold no "%", so decoding a segment Next has already decoded changes nothing.
    id = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return REQUEST_ID.test(id) ? id : null;
}

/** A query string for the log with `changes` applied to the current filters (the page's cursor dropped unless given). */
export function logHref(path: string, p: RequestLogParams, changes: { before?: string } = {}): string {
  const v = formValues(p);
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(v)) if (value) q.set(name, value);
  if (changes.before) q.set("before", changes.before);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
