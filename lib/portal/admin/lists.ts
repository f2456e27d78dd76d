import { z } from "zod";
import type { Database } from "../../db/database.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { keySummary } from "../../gateway/keys/key-list.ts";
import type { AuditNames } from "./audit-text.ts";

/**
 * The operator's lists, a page at a time and searchable, so the admin pages cost the same with ten
 * keys or a hundred thousand: each reads one page and its count, never the whole table.
 */

export const REQUEST_STATUSES = ["pending", "decided", "approved", "declined", "withdrawn", "all"] as const;
export const KEY_STATES = ["working", "revoked", "all"] as const;

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
const text = z.preprocess((v) => {
  const s = first(v);
  return typeof s === "string" && s.trim() ? s.trim() : undefined;
}, z.string().max(200, "must be at most 200 characters").optional());
const page = z.preprocess(
  (v) => first(v) ?? undefined,
  z.coerce.number({ message: "must be a page number" }).int().min(1).max(100_000).default(1),
);

export const requestListParams = z.object({
  q: text,
  status: z.preprocess((v) => first(v) || undefined, z.enum(REQUEST_STATUSES).default("pending")),
  page,
});
export const keyListParams = z.object({
  q: text,
  state: z.preprocess((v) => first(v) || undefined, z.enum(KEY_STATES).default("working")),
  page,
});
export const auditListParams = z.object({ q: text, page });

/** A query string checked by `schema`; a bad field is named (shown on the page) rather than a 500. */
export function parseListParams<T extends z.ZodTypeAny>(
  schema: T,
  query: Record<string, string | string[] | undefined>,
): { ok: true; params: z.infer<T> } | { ok: false; error: string } {
  const parsed = schema.safeParse(query);
  if (parsed.success) return { ok: true, params: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, error: `${issue.path.join(".") || "query"} ${issue.message}` };
}

export type Paged<T> = { rows: T[]; total: number; page: number; pages: number };

const paged = <T>(rows: T[], total: number, pageNo: number, size: number): Paged<T> => ({
  rows,
  total,
  page: pageNo,
  pages: Math.max(1, Math.ceil(total / size)),
});

const contains = (q: string) => ({ contains: q, mode: "insensitive" as const });

export const REQUESTS_PER_PAGE = 20;

/** Key requests by status, oldest waiting first (a queue) and newest decided first (a history). */
export async function keyRequestsPage(db: Database, p: z.infer<typeof requestListParams>) {
  const where: Prisma.KeyRequestWhereInput = {
    ...(p.status === "decided" ? { status: { in: ["approved", "declined"] } } : {}),
    ...(p.status === "decided" || p.status === "all" ? {} : { status: p.status }),
    ...(p.q
      ? {
          OR: [
            { name: contains(p.q) },
            { user: { email: contains(p.q) } },
            { organisation: contains(p.q) },
            { note: contains(p.q) },
            { decidedBy: contains(p.q) },
            { id: p.q },
          ],
        }
      : {}),
  };
  const orderBy: Prisma.KeyRequestOrderByWithRelationInput[] =
    p.status === "pending" ? [{ createdAt: "asc" }, { id: "asc" }] : [{ decidedAt: "desc" }, { createdAt: "desc" }];
  const [rows, total] = await Promise.all([
    db.prisma.keyRequest.findMany({
      where,
      orderBy,
      include: { user: { select: { email: true } } },
      skip: (p.page - 1) * REQUESTS_PER_PAGE,
      take: REQUESTS_PER_PAGE,
    }),
    db.prisma.keyRequest.count({ where }),
  ]);
  return paged(rows, total, p.page, REQUESTS_PER_PAGE);
}

export const KEYS_PER_PAGE = 25;

/** Keys matching a name, prefix, id or owner's address; working ones are neither revoked nor expired. */
export async function keysPage(db: Database, p: z.infer<typeof keyListParams>, now = new Date()) {
  const state: Prisma.ApiKeyWhereInput =
    p.state === "working"
      ? { status: "active", OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }
      : p.state === "revoked"
        ? { OR: [{ status: "revoked" }, { expiresAt: { lte: now } }] }
        : {};
  const search: Prisma.ApiKeyWhereInput = p.q
    ? {
        OR: [{ name: contains(p.q) }, { prefix: { startsWith: p.q } }, { id: p.q }, { user: { email: contains(p.q) } }],
      }
    : {};
  const where: Prisma.ApiKeyWhereInput = { AND: [state, search] };
  const [rows, total] = await Promise.all([
    db.prisma.apiKey.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      include: { user: { select: { email: true } } },
      skip: (p.page - 1) * KEYS_PER_PAGE,
      take: KEYS_PER_PAGE,
    }),
    db.prisma.apiKey.count({ where }),
  ]);
  return paged(rows.map(keySummary), total, p.page, KEYS_PER_PAGE);
}

export const AUDIT_PER_PAGE = 50;

/**
 * Audit entries, newest first, matching an action, a target id, an actor, or the address of the person
 * who acted (entries name users as `user:<id>`, so an address is searched through the users it matches).
 */
export async function auditPage(db: Database, p: z.infer<typeof auditListParams>) {
  let where: Prisma.AuditLogWhereInput = {};
  if (p.q) {
    const people = await db.prisma.user.findMany({
      where: { email: contains(p.q) },
      select: { id: true },
      take: 100,
    });
    where = {
      OR: [
        { action: contains(p.q) },
        { actor: contains(p.q) },
        { target: p.q },
        ...(people.length ? [{ actor: { in: people.map((u) => `user:${u.id}`) } }] : []),
      ],
    };
  }
  const [rows, total] = await Promise.all([
    db.prisma.auditLog.findMany({
      where,
      orderBy: { id: "desc" },
      skip: (p.page - 1) * AUDIT_PER_PAGE,
      take: AUDIT_PER_PAGE,
    }),
    db.prisma.auditLog.count({ where }),
  ]);
  return { ...paged(rows, total, p.page, AUDIT_PER_PAGE), names: await auditNames(db, rows) };
}

/** The people, keys and requests the entries on one page mention: three queries, whatever the page holds. */
export async function auditNames(
  db: Database,
  rows: { actor: string; target: string | null; detail: unknown }[],
): Promise<AuditNames> {
  const userIds = new Set<string>();
  const keyIds = new Set<string>();
  const requestIds = new Set<string>();
  for (const r of rows) {
    if (r.actor.startsWith("user:")) userIds.add(r.actor.slice(5));
    if (r.target?.startsWith("key_")) keyIds.add(r.target);
    if (r.target?.startsWith("kr_")) requestIds.add(r.target);
    const replacement = (r.detail as { replacement?: unknown } | null)?.replacement;
    if (typeof replacement === "string") keyIds.add(replacement);
  }
  const [people, keys, requests] = await Promise.all([
    userIds.size
      ? db.prisma.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, email: true } })
      : [],
    keyIds.size
      ? db.prisma.apiKey.findMany({
          where: { id: { in: [...keyIds] } },
          select: { id: true, name: true, prefix: true },
        })
      : [],
    requestIds.size
      ? db.prisma.keyRequest.findMany({ where: { id: { in: [...requestIds] } }, select: { id: true, name: true } })
      : [],
  ]);
  return {
    people: new Map(people.map((u) => [u.id, u.email])),
    keys: new Map(keys.map((k) => [k.id, { name: k.name, prefix: k.prefix }])),
    requests: new Map(requests.map((r) => [r.id, r.name])),
  };
}
