import { z } from "zod";
import type { Database } from "../../db/client.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { isUnsafeText } from "../http/safe-text.ts";
import { heldNames, isKeyNameTaken, nameClash } from "./names.ts";

/** A key change the rules refuse; the message is for whoever asked (portal user or operator). */
export class KeyRuleError extends Error {
  override name = "KeyRuleError";
}

/** Rules that depend on the operator's configuration. */
export type KeyRules = { maxKeysPerUser: number };
export const DEFAULT_KEY_RULES: KeyRules = { maxKeysPerUser: 10 };

/** Locks the owner's row, so two key changes of one user at once cannot both pass a count or a name check. */
export async function lockUser(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`;
}

/**
 * Refuses one more live client key for a user who already holds the most allowed. A key in its rotation
 * grace period still works, so it counts as well as its replacement. `advice` says what the person asking
 * can do instead.
 */
export async function assertRoomForKey(
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
export async function assertNameFree(
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
export async function withNameIndex<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isKeyNameTaken(err)) throw new KeyRuleError("that name was just taken by another key of this account");
    throw err;
  }
}

/**
 * Text a key or a request may hold. The portal's forms and the operator CLI reach the key schemas without
 * the API's validation hook, so the same rule is written here: text the database cannot store is a
 * validation error, not a 500.
 */
export const storable = (text: z.ZodString) =>
  text.refine((v) => !isUnsafeText(v), "must not contain NUL characters or unpaired surrogates");

/**
 * Who may change a key: the operator (no owner given) any key; a user only their own client keys
 * (their console key is the portal's, not theirs to rename, rotate or revoke).
 */
export async function findChangeable(db: Database, id: string, owner?: string) {
  const row = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!row || (owner !== undefined && (row.userId !== owner || row.kind !== "client"))) return null;
  return row;
}
