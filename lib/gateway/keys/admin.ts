import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import type { ApiKey, Prisma } from "../../db/generated/client.ts";
import { decideByPolicy, type KeyApprovalPolicy } from "./approval.ts";
import { heldNames, isKeyNameTaken, nameClash } from "./names.ts";
import { isOperatorScope, OPERATOR_SCOPES, SCOPE_AREAS, toKeyRecord, type KeyRecord } from "./record.ts";
import { generateKey } from "./secrets.ts";
import { isUnsafeText } from "../http/safe-text.ts";

/** A key change the rules refuse; the message is for whoever asked (portal user or operator). */
export class KeyRuleError extends Error {
  override name = "KeyRuleError";
}

/** Rules that depend on the operator's configuration. */
export type KeyRules = { maxKeysPerUser: number };
export const DEFAULT_KEY_RULES: KeyRules = { maxKeysPerUser: 10 };

/** Locks the owner's row, so two key changes of one user at once cannot both pass a count or a name check. */
async function lockUser(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`;
}

/**
 * Refuses one more live client key for a user who already holds the most allowed. A key in its rotation
 * grace period still works, so it counts as well as its replacement. `advice` says what the person asking
 * can do instead.
 */
async function assertRoomForKey(
  tx: Prisma.TransactionClient,
  userId: string,
  rules: KeyRules,
  now = new Date(),
  advice = "revoke one first",
): Promise<void> {
  await lockUser(tx, userId);
  const active = await tx.apiKey.count({
    where: {
      userId,
      kind: "client",
      status: "active",
      OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
    },
  });
  if (active >= rules.maxKeysPerUser) {
    throw new KeyRuleError(
      `the owner already has ${active} active keys, the most allowed (${rules.maxKeysPerUser}, keys in a rotation grace period included); ${advice}`,
    );
  }
}

/**
 * Refuses a name the owner's keys or open requests already have (names.ts). `advice` is what the
 * person asking can do about it.
 */
async function assertNameFree(
  tx: Prisma.TransactionClient,
  userId: string,
  name: string,
  except: { keyId?: string; requestId?: string } = {},
  advice?: string,
): Promise<void> {
  await lockUser(tx, userId);
  const clash = nameClash(name, await heldNames(tx, userId, except), advice);
  if (clash) throw new KeyRuleError(clash);
}

/**
 * Runs a transaction that writes a key's name. The check above runs under the owner's lock, so only
 * a writer that skipped it (an older instance during an upgrade) can meet the index first; the
 * index's refusal is then the same rule error, not a 500.
 */
async function withNameIndex<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isKeyNameTaken(err)) throw new KeyRuleError("that name was just taken by another key of this account");
    throw err;
  }
}

// The portal's forms and the operator CLI reach these schemas without the API's validation hook, so
// the same rule is written here: text the database cannot store is a validation error, not a 500.
const storable = (text: z.ZodString) =>
  text.refine((v) => !isUnsafeText(v), "must not contain NUL characters or unpaired surrogates");

export const createKeyInput = z.object({
  name: storable(z.string().trim().min(1).max(100)),
  email: z.string().email().optional(),
  day: z.number().int().positive().optional(),
  minute: z.number().int().positive().optional(),
  concurrency: z.number().int().positive().optional(),
  // Operator scopes are accepted here (the CLI and the loopback operator endpoint), never from the portal.
  scopes: z
    .array(z.enum([...SCOPE_AREAS, ...OPERATOR_SCOPES]))
    .max(50)
    .default([]),
  expiresAt: z.coerce.date().optional(),
});
export type CreateKeyInput = z.input<typeof createKeyInput>;

export type CreatedKey = { id: string; key: string; prefix: string; record: KeyRecord };

export type KeySummary = {
  id: string;
  name: string;
  kind: string;
  prefix: string;
  email: string | null;
  status: string;
  scopes: string[];
  /** What the operator granted; the owner may narrow within it ([] = every area). */
  granted_scopes: string[];
  limits: { day: number | null; minute: number | null; concurrency: number | null };
  /** The first key of its rotation lineage (itself when never rotated into). */
  lineage_id: string;
  /** Set once the key was rotated: its replacement's id. */
  replaced_by: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
};

/** Issues a key. The full key is returned here once and is never stored. */
export async function createKey(
  db: Database,
  input: CreateKeyInput,
  actor: string,
  rules = DEFAULT_KEY_RULES,
): Promise<CreatedKey> {
  const data = createKeyInput.parse(input);
  const { key, hash, prefix } = generateKey();
  const id = `key_${randomUUID().replaceAll("-", "")}`;
  const row = await withNameIndex(() =>
    db.prisma.$transaction(async (tx) => {
      const user = data.email
        ? await tx.user.upsert({
            where: { email: data.email },
            create: { id: randomUUID(), email: data.email },
            update: {},
          })
        : null;
      if (user) {
        await assertRoomForKey(tx, user.id, rules);
        await assertNameFree(tx, user.id, data.name);
      }
      const created = await tx.apiKey.create({
        data: {
          id,
          name: data.name,
          prefix,
          hash,
          userId: user?.id ?? null,
          scopes: data.scopes,
          grantedScopes: data.scopes,
          lineageId: id,
          dayLimit: data.day ?? null,
          minuteLimit: data.minute ?? null,
          concurrencyLimit: data.concurrency ?? null,
          expiresAt: data.expiresAt ?? null,
        },
      });
      await tx.auditLog.create({
        data: { actor, action: "key.create", target: id, detail: { name: data.name, prefix } },
      });
      return created;
    }),
  );
  return { id, key, prefix, record: toKeyRecord(row) };
}

/** Every key, or one user's keys. */
export async function listKeys(db: Database, userId?: string): Promise<KeySummary[]> {
  const rows = await db.prisma.apiKey.findMany({
    where: userId ? { userId } : {},
    orderBy: { createdAt: "asc" },
    include: { user: true },
  });
  return rows.map(keySummary);
}

/** A key row, with its owner, as the portal lists it. */
export function keySummary(r: ApiKey & { user: { email: string | null } | null }): KeySummary {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    prefix: r.prefix,
    email: r.user?.email ?? null,
    status: r.status,
    scopes: r.scopes,
    granted_scopes: r.grantedScopes,
    limits: { day: r.dayLimit, minute: r.minuteLimit, concurrency: r.concurrencyLimit },
    lineage_id: r.lineageId ?? r.id,
    replaced_by: r.replacedBy,
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    expires_at: r.expiresAt?.toISOString() ?? null,
  };
}

/**
 * Who may change a key: the operator (no owner given) any key; a user only their own client keys
 * (their console key is the portal's, not theirs to rename, rotate or revoke).
 */
async function findChangeable(db: Database, id: string, owner?: string) {
  const row = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!row || (owner !== undefined && (row.userId !== owner || row.kind !== "client"))) return null;
  return row;
}

/** Revokes a key; null when there is no such key (or, given an owner, none of theirs). Revoking twice is harmless. */
export async function revokeKey(db: Database, id: string, actor: string, owner?: string): Promise<KeyRecord | null> {
  const existing = await findChangeable(db, id, owner);
  if (!existing) return null;
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({ where: { id }, data: { status: "revoked" } });
    await tx.auditLog.create({ data: { actor, action: "key.revoke", target: id } });
    return updated;
  });
  return toKeyRecord(row);
}

export const CONSOLE_KEY_NAME = "Portal consoles";

/**
 * The user's console key (what the portal session is metered and limited as), created on first use
 * with no scopes or limits of its own: the key cache gives it the console policy (CONSOLE_KEY_SCOPES,
 * CONSOLE_LIMIT_*) unless an operator sets its limits. Its secret is discarded at once: only the session reaches it.
 * A revoked console key stays the answer, so an operator can switch a user's console access off.
 */
export async function consoleKeyFor(db: Database, userId: string): Promise<KeyRecord> {
  const find = () => db.prisma.apiKey.findFirst({ where: { userId, kind: "console" }, orderBy: { createdAt: "desc" } });
  const existing = await find();
  if (existing) return toKeyRecord(existing);
  const { hash, prefix } = generateKey();
  const id = `key_${randomUUID().replaceAll("-", "")}`;
  try {
    const row = await db.prisma.$transaction(async (tx) => {
      const created = await tx.apiKey.create({
        data: { id, name: CONSOLE_KEY_NAME, prefix, hash, userId, kind: "console", lineageId: id },
      });
      await tx.auditLog.create({
        data: {
          actor: `user:${userId}`,
          action: "key.create",
          target: id,
          detail: { name: CONSOLE_KEY_NAME, prefix, kind: "console" },
        },
      });
      return created;
    });
    return toKeyRecord(row);
  } catch (err) {
    // Two first requests at once: the unique index lets one create it; the other reads that one.
    const winner = await find();
    if (winner) return toKeyRecord(winner);
    throw err;
  }
}

export const renameKeyInput = z.object({ name: storable(z.string().trim().min(1).max(100)) });

export async function renameKey(
  db: Database,
  id: string,
  input: z.input<typeof renameKeyInput>,
  actor: string,
  owner?: string,
): Promise<KeyRecord | null> {
  const { name } = renameKeyInput.parse(input);
  const existing = await findChangeable(db, id, owner);
  if (!existing) return null;
  const row = await withNameIndex(() =>
    db.prisma.$transaction(async (tx) => {
      if (existing.userId && existing.kind === "client") await assertNameFree(tx, existing.userId, name, { keyId: id });
      const updated = await tx.apiKey.update({ where: { id }, data: { name } });
      await tx.auditLog.create({
        data: { actor, action: "key.rename", target: id, detail: { from: existing.name, to: name } },
      });
      return updated;
    }),
  );
  return toKeyRecord(row);
}

export const setScopesInput = z.object({ scopes: z.array(z.enum(SCOPE_AREAS)).max(50) });

/**
 * Sets the areas a key may call; an empty list means all of them. Operator scopes it holds stay. The
 * operator (no owner given) sets the grant as well; an owner may only narrow within the granted areas,
 * and cannot clear a granted list to "all".
 */
export async function setKeyScopes(
  db: Database,
  id: string,
  input: z.input<typeof setScopesInput>,
  actor: string,
  owner?: string,
): Promise<KeyRecord | null> {
  const areas = [...new Set(setScopesInput.parse(input).scopes)].sort();
  const existing = await findChangeable(db, id, owner);
  if (!existing) return null;
  const granted = existing.grantedScopes.filter((s) => !isOperatorScope(s));
  if (owner !== undefined && granted.length) {
    const beyond = areas.filter((s) => !granted.includes(s));
    if (!areas.length || beyond.length) {
      const asked = areas.length ? beyond.join(", ") : "every area";
      throw new KeyRuleError(
        `this key may call only ${granted.join(", ")} (set by the operator); it cannot be given ${asked}`,
      );
    }
  }
  const scopes = [...new Set([...areas, ...existing.scopes.filter(isOperatorScope)])].sort();
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({
      where: { id },
      data: owner === undefined ? { scopes, grantedScopes: scopes } : { scopes },
    });
    await tx.auditLog.create({
      data: { actor, action: "key.scopes", target: id, detail: { from: existing.scopes, to: scopes } },
    });
    return updated;
  });
  return toKeyRecord(row);
}

const limitValue = z.number().int().min(1).max(100_000_000).nullable();
export const setLimitsInput = z.object({ day: limitValue, minute: limitValue, concurrency: limitValue });

/** An operator's per-key limits; null means the service default for that window. */
export async function setKeyLimits(
  db: Database,
  id: string,
  input: z.input<typeof setLimitsInput>,
  actor: string,
): Promise<KeyRecord | null> {
  const { day, minute, concurrency } = setLimitsInput.parse(input);
  const existing = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!existing) return null;
  const row = await db.prisma.$transaction(async (tx) => {
    const updated = await tx.apiKey.update({
      where: { id },
      data: { dayLimit: day, minuteLimit: minute, concurrencyLimit: concurrency },
    });
    const from = { day: existing.dayLimit, minute: existing.minuteLimit, concurrency: existing.concurrencyLimit };
    await tx.auditLog.create({
      data: { actor, action: "key.limits", target: id, detail: { from, to: { day, minute, concurrency } } },
    });
    return updated;
  });
  return toKeyRecord(row);
}

export const rotateKeyInput = z.object({
  /** How long the old key keeps working, so deployed programs can switch over. */
  graceHours: z
    .number()
    .min(0)
    .max(24 * 30)
    .default(24),
});

/** `ended`: keys of the lineage whose grace period this rotation ended (revoked), for the caller to publish. */
export type RotatedKey = CreatedKey & { old: KeyRecord; ended: KeyRecord[] };

/**
 * Issues a replacement with the same name, owner, scopes, grant, limits, expiry and limit lineage (so
 * its counters continue the old key's), and lets the old key expire after the grace period (at once
 * for 0). Revoked, expired and already rotated keys are refused. The new secret is returned here once.
 *
 * A lineage has at most one key in its grace period: a key rotated earlier and still in it is revoked
 * now, so rotating again and again never yields more working keys. The grace key counts towards the
 * owner's MAX_KEYS_PER_USER, so a rotation with a grace period needs room for one more key.
 */
export async function rotateKey(
  db: Database,
  id: string,
  input: z.input<typeof rotateKeyInput>,
  actor: string,
  owner?: string,
  rules = DEFAULT_KEY_RULES,
  now = new Date(),
): Promise<RotatedKey | null> {
  const { graceHours } = rotateKeyInput.parse(input);
  const existing = await findChangeable(db, id, owner);
  if (!existing) return null;
  if (existing.status === "revoked") throw new KeyRuleError("a revoked key cannot be rotated");
  if (existing.expiresAt && existing.expiresAt <= now) throw new KeyRuleError("an expired key cannot be rotated");
  const alreadyRotated = () =>
    new KeyRuleError("this key was already rotated (its replacement is pending); rotate the replacement instead");
  if (existing.replacedBy) throw alreadyRotated();
  const { key, hash, prefix } = generateKey();
  const newId = `key_${randomUUID().replaceAll("-", "")}`;
  const graceEnds = new Date(now.getTime() + graceHours * 3_600_000);
  // A key already due to expire sooner keeps its earlier end.
  const oldExpiry = existing.expiresAt && existing.expiresAt < graceEnds ? existing.expiresAt : graceEnds;
  const lineage = existing.lineageId ?? existing.id;
  const [created, old, ended] = await db.prisma.$transaction(async (tx) => {
    // The owner first, as every key change takes it, so this and a rename of the key cannot deadlock.
    if (existing.userId) await lockUser(tx, existing.userId);
    // Conditional, so of two rotations at once only one claims the key; the other rolls back. Claimed
    // before the replacement is written: the old key gives its name up (it no longer holds it once
    // replaced) in time for the replacement to take it under the unique name index.
    const claimed = await tx.apiKey.updateMany({
      where: { id, replacedBy: null, status: "active" },
      data: { expiresAt: oldExpiry, replacedBy: newId },
    });
    if (claimed.count === 0) throw alreadyRotated();
    // The lineage's earlier key still in its grace period stops now: one key in grace per lineage.
    const inGrace = await tx.apiKey.findMany({
      where: {
        OR: [{ lineageId: lineage }, { id: lineage }],
        id: { not: id },
        status: "active",
        replacedBy: { not: null },
        expiresAt: { gt: now },
      },
    });
    if (inGrace.length) {
      await tx.apiKey.updateMany({ where: { id: { in: inGrace.map((k) => k.id) } }, data: { status: "revoked" } });
      await tx.auditLog.createMany({
        data: inGrace.map(({ id: target }) => ({
          actor,
          action: "key.revoke",
          target,
          detail: { reason: "its lineage was rotated again: one key in a grace period per lineage", rotation: id },
        })),
      });
    }
    // The old key still works through its grace period: it counts, so the replacement needs room.
    if (existing.userId && existing.kind === "client" && oldExpiry > now)
      await assertRoomForKey(tx, existing.userId, rules, now, "revoke one first, or rotate with no grace period");
    // Read again under the claim: a rename or a scope change made since the read above carries over.
    const updated = await tx.apiKey.findUniqueOrThrow({ where: { id } });
    const fresh = await tx.apiKey.create({
      data: {
        id: newId,
        name: updated.name,
        prefix,
        hash,
        userId: updated.userId,
        scopes: updated.scopes,
        grantedScopes: updated.grantedScopes,
        dayLimit: updated.dayLimit,
        minuteLimit: updated.minuteLimit,
        concurrencyLimit: updated.concurrencyLimit,
        // The old key's own expiry, not the end of the grace period the claim just wrote.
        expiresAt: existing.expiresAt,
        lineageId: updated.lineageId ?? updated.id,
      },
    });
    // The lineage's monthly budget moves to its newest key (lib/portal/budgets.ts); it applies to the whole
    // lineage, whose spend adds up in it. Instances map the replacement to it on their next budget refresh.
    await tx.$executeRaw`UPDATE key_budgets SET key_id = ${newId} WHERE key_id = ${id}`;
    await tx.auditLog.create({
      data: {
        actor,
        action: "key.rotate",
        target: id,
        detail: { replacement: newId, prefix, old_expires_at: oldExpiry.toISOString(), grace_hours: graceHours },
      },
    });
    return [fresh, updated, inGrace.map((k) => ({ ...k, status: "revoked" }))] as const;
  });
  return {
    id: newId,
    key,
    prefix,
    record: toKeyRecord(created),
    old: toKeyRecord(old),
    ended: ended.map(toKeyRecord),
  };
}

export const keyRequestInput = z.object({
  name: storable(z.string().trim().min(1, "give the key a name").max(100)),
  intendedUse: storable(z.string().trim().min(10, "say in a sentence or two what you will use it for").max(2000)),
  organisation: storable(z.string().trim().max(200))
    .optional()
    .transform((v) => v || undefined),
  useType: z.enum(["personal", "research", "education", "commercial"]),
  /** The areas asked for; [] = every area. Granted as asked: the owner may narrow them later, not widen. */
  scopes: z.array(z.enum(SCOPE_AREAS)).max(50).default([]),
  /** When the key stops working; none = never. */
  expiresAt: z.coerce.date().optional(),
});
export type KeyRequestInput = z.input<typeof keyRequestInput>;

/**
 * Files a request for a key, decided at once by the operator's approval policy on the requester's
 * own address (read here, from the account: the one their sign-in proved), or left pending for an
 * operator. A name the requester's keys or open requests already have is refused.
 */
export async function requestKey(
  db: Database,
  userId: string,
  input: KeyRequestInput,
  policy: KeyApprovalPolicy,
  now = new Date(),
) {
  const data = keyRequestInput.parse(input);
  if (data.expiresAt && data.expiresAt <= now) throw new KeyRuleError("the expiry date must be in the future");
  const scopes = [...new Set(data.scopes)].sort();
  const id = `kr_${randomUUID().replaceAll("-", "")}`;
  return db.prisma.$transaction(async (tx) => {
    await assertNameFree(tx, userId, data.name);
    const { email } = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
    const decision = decideByPolicy(policy, email);
    const request = await tx.keyRequest.create({
      data: {
        id,
        userId,
        name: data.name,
        intendedUse: data.intendedUse,
        organisation: data.organisation ?? null,
        useType: data.useType,
        scopes,
        expiresAt: data.expiresAt ?? null,
        ...(decision.approved ? { status: "approved", decidedBy: decision.by, decidedAt: now } : {}),
      },
    });
    await tx.auditLog.create({
      data: {
        actor: `user:${userId}`,
        action: "key_request.create",
        target: id,
        detail: {
          name: data.name,
          use_type: data.useType,
          scopes,
          expires_at: data.expiresAt?.toISOString() ?? null,
        },
      },
    });
    if (decision.approved)
      await tx.auditLog.create({ data: { actor: decision.by, action: "key_request.approve", target: id } });
    return request;
  });
}

export const decisionInput = z.object({
  approve: z.boolean(),
  note: storable(z.string().trim().max(1000))
    .optional()
    .transform((v) => v || undefined),
});

/** The operator's decision on a pending request; null when it is not pending (decided already, or unknown). */
export async function decideKeyRequest(db: Database, id: string, input: z.input<typeof decisionInput>, actor: string) {
  const { approve, note } = decisionInput.parse(input);
  return db.prisma.$transaction(async (tx) => {
    const changed = await tx.keyRequest.updateMany({
      where: { id, status: "pending" },
      data: { status: approve ? "approved" : "declined", note: note ?? null, decidedBy: actor, decidedAt: new Date() },
    });
    if (changed.count === 0) return null;
    await tx.auditLog.create({
      data: {
        actor,
        action: approve ? "key_request.approve" : "key_request.decline",
        target: id,
        detail: note ? { note } : undefined,
      },
    });
    return tx.keyRequest.findUniqueOrThrow({ where: { id }, include: { user: true } });
  });
}

/**
 * Creates the key of an approved request for its requester, once, with the scopes (also its grant)
 * and expiry asked for. The secret exists only in this answer (nothing stores it), so it is made at
 * the moment the requester is there to see it; a second call finds the request picked up and returns
 * null. Refused (and left to pick up later) when the owner has no room for a key or has since given
 * its name to another key; refused for good once its expiry date has passed.
 */
export async function pickUpKey(
  db: Database,
  requestId: string,
  userId: string,
  rules = DEFAULT_KEY_RULES,
  now = new Date(),
): Promise<CreatedKey | null> {
  const { key, hash, prefix } = generateKey();
  const id = `key_${randomUUID().replaceAll("-", "")}`;
  return withNameIndex(() =>
    db.prisma.$transaction(async (tx) => {
      const claimed = await tx.keyRequest.updateMany({
        where: { id: requestId, userId, status: "approved", keyId: null },
        data: { keyId: id },
      });
      if (claimed.count === 0) return null;
      const request = await tx.keyRequest.findUniqueOrThrow({ where: { id: requestId } });
      if (request.expiresAt && request.expiresAt <= now)
        throw new KeyRuleError(
          `this key was to expire on ${request.expiresAt.toISOString().slice(0, 10)}, which has passed; request a new one`,
        );
      await assertRoomForKey(tx, userId, rules);
      await assertNameFree(tx, userId, request.name, { requestId }, "Rename that key first, then create this one.");
      const row = await tx.apiKey.create({
        data: {
          id,
          name: request.name,
          prefix,
          hash,
          userId,
          lineageId: id,
          scopes: request.scopes,
          grantedScopes: request.scopes,
          expiresAt: request.expiresAt,
        },
      });
      await tx.auditLog.create({
        data: {
          actor: `user:${userId}`,
          action: "key.create",
          target: id,
          detail: { name: request.name, prefix, request: requestId },
        },
      });
      return { id, key, prefix, record: toKeyRecord(row) };
    }),
  );
}

export type AuditEntry = {
  id: string;
  actor: string;
  action: string;
  target: string | null;
  detail: unknown;
  at: string;
};

export async function listAudit(db: Database, limit = 100): Promise<AuditEntry[]> {
  const rows = await db.prisma.auditLog.findMany({ orderBy: { id: "desc" }, take: limit });
  return rows.map((r) => ({
    id: String(r.id),
    actor: r.actor,
    action: r.action,
    target: r.target,
    detail: r.detail,
    at: r.createdAt.toISOString(),
  }));
}
