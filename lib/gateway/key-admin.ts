import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import { toKeyRecord, type KeyRecord } from "./key-record.ts";
import { generateKey } from "./keys.ts";

export const SCOPE_AREAS = [
  "aac", "clinical", "corpus", "create", "data", "datavis", "documents", "etymology", "generate",
  "linguistics", "llm", "orchestrate", "proxy", "screenshot", "social", "swarm", "tools", "trove", "utils",
] as const;

export const createKeyInput = z.object({
  name: z.string().trim().min(1).max(100),
  email: z.string().email().optional(),
  day: z.number().int().positive().optional(),
  minute: z.number().int().positive().optional(),
  concurrency: z.number().int().positive().optional(),
  scopes: z.array(z.enum(SCOPE_AREAS)).default([]),
  expiresAt: z.coerce.date().optional(),
});
export type CreateKeyInput = z.input<typeof createKeyInput>;

export type CreatedKey = { id: string; key: string; prefix: string; record: KeyRecord };

export type KeySummary = {
  id: string;
  name: string;
  prefix: string;
  email: string | null;
  status: string;
  scopes: string[];
  limits: { day: number | null; minute: number | null; concurrency: number | null };
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
};

/** Issues a key. The full key is returned here once and is never stored. */
export async function createKey(db: Database, input: CreateKeyInput, actor: string): Promise<CreatedKey> {
  const data = createKeyInput.parse(input);
  const { key, hash, prefix } = generateKey();
  const id = `key_${randomUUID().replaceAll("-", "")}`;
  const row = await db.prisma.$transaction(async (tx) => {
    const user = data.email
      ? await tx.user.upsert({ where: { email: data.email }, create: { id: randomUUID(), email: data.email }, update: {} })
      : null;
    const created = await tx.apiKey.create({
      data: {
        id,
        name: data.name,
        prefix,
        hash,
        userId: user?.id ?? null,
        scopes: data.scopes,
        dayLimit: data.day ?? null,
        minuteLimit: data.minute ?? null,
        concurrencyLimit: data.concurrency ?? null,
        expiresAt: data.expiresAt ?? null,
      },
    });
    await tx.auditLog.create({ data: { actor, action: "key.create", target: id, detail: { name: data.name, prefix } } });
    return created;
  });
  return { id, key, prefix, record: toKeyRecord(row) };
}

export async function listKeys(db: Database): Promise<KeySummary[]> {
  const rows = await db.prisma.apiKey.findMany({ orderBy: { createdAt: "asc" }, include: { user: true } });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    email: r.user?.email ?? null,
    status: r.status,
    scopes: r.scopes,
    limits: { day: r.dayLimit, minute: r.minuteLimit, concurrency: r.concurrencyLimit },
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    expires_at: r.expiresAt?.toISOString() ?? null,
  }));
}

/** Revokes a key; null when there is no such key. Revoking twice is harmless. */
export async function revokeKey(db: Database, id: string, actor: string): Promise<KeyRecord | null> {
  const existing = await db.prisma.apiKey.findUnique({ where: { id } });
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
 * with the default limits and all scopes. Its secret is discarded at once: only the session reaches it.
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
      const created = await tx.apiKey.create({ data: { id, name: CONSOLE_KEY_NAME, prefix, hash, userId, kind: "console" } });
      await tx.auditLog.create({ data: { actor: `user:${userId}`, action: "key.create", target: id, detail: { name: CONSOLE_KEY_NAME, prefix, kind: "console" } } });
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
