import { randomUUID } from "node:crypto";
import type { Database } from "../../db/client.ts";
import { toKeyRecord, type KeyRecord } from "./record.ts";
import { generateKey } from "./secrets.ts";

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
