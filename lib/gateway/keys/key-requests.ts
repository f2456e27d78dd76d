import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { decideByPolicy, type KeyApprovalPolicy } from "./approval.ts";
import type { CreatedKey } from "./key-changes.ts";
import {
  assertNameFree,
  assertRoomForKey,
  DEFAULT_KEY_RULES,
  KeyRuleError,
  storable,
  withNameIndex,
} from "./key-rules.ts";
import { SCOPE_AREAS, toKeyRecord } from "./record.ts";
import { generateKey } from "./secrets.ts";

export const keyRequestInput = z.object({
  name: storable(z.string().trim().min(1, "give the key a name").max(100)),
  intendedUse: storable(
    z.string().trim().min(10, "say in a sentence or two (at least 10 characters) what you will use it for").max(2000),
  ),
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

/**
 * The requester takes back a request no operator has decided yet: it leaves the operator's queue (kept in
 * their history as withdrawn) and its name is free again. False when it is not theirs or not pending.
 */
export async function withdrawKeyRequest(db: Database, requestId: string, userId: string): Promise<boolean> {
  const actor = `user:${userId}`;
  return db.prisma.$transaction(async (tx) => {
    const changed = await tx.keyRequest.updateMany({
      where: { id: requestId, userId, status: "pending" },
      data: { status: "withdrawn", decidedBy: actor, decidedAt: new Date(), dismissedAt: new Date() },
    });
    if (changed.count === 0) return false;
    await tx.auditLog.create({ data: { actor, action: "key_request.withdraw", target: requestId } });
    return true;
  });
}

/**
 * The requester puts a declined request out of their list, having read the operator's note; the operator
 * still sees it in their history. False when it is not theirs or not declined.
 */
export async function dismissKeyRequest(db: Database, requestId: string, userId: string): Promise<boolean> {
  const changed = await db.prisma.keyRequest.updateMany({
    where: { id: requestId, userId, status: "declined", dismissedAt: null },
    data: { dismissedAt: new Date() },
  });
  return changed.count > 0;
}
