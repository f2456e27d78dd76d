import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import type { CreatedKey } from "./key-changes.ts";
import { assertRoomForKey, DEFAULT_KEY_RULES, findChangeable, KeyRuleError, lockUser } from "./key-rules.ts";
import { toKeyRecord, type KeyRecord } from "./record.ts";
import { generateKey } from "./secrets.ts";

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
 * Issues a replacement with the same name, owner, team, scopes, grant, limits (token limits included),
 * cache policy, model rules, expiry and limit lineage (so its counters continue the old key's), and lets
 * the old key expire after the grace period (at once for 0). Revoked, expired and already rotated keys are refused. The new secret is returned here once.
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
        modelAllow: updated.modelAllow,
        modelDeny: updated.modelDeny,
        tokenMinuteLimit: updated.tokenMinuteLimit,
        tokenDayLimit: updated.tokenDayLimit,
        cacheMaxAge: updated.cacheMaxAge,
        guardrails: updated.guardrails,
        cacheSemantic: updated.cacheSemantic,
        cacheScope: updated.cacheScope,
        teamId: updated.teamId,
        // The old key's own expiry, not the end of the grace period the claim just wrote.
        expiresAt: existing.expiresAt,
        lineageId: updated.lineageId ?? updated.id,
      },
    });
    // The lineage's monthly budget moves to its newest key (lib/portal/usage/budgets.ts); it applies to the whole
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
