import type { Prisma } from "../../db/generated/client.ts";

/**
 * Key names are unique per owner, so "laptop" in a list, a dashboard or a mail means one
 * key. The database enforces it on api_keys (index api_keys_user_name_key, 0009_key_names); the
 * check here runs first, under the owner's row lock, to answer with a sentence instead of a 500,
 * and also covers the open requests whose names become keys' names when they are picked up.
 */

/** The unique index on key names (0009_key_names); a violation of it is a name taken in a race. */
export const KEY_NAME_INDEX = "api_keys_user_name_key";

/** Names compare trimmed and case-insensitively, as the index's lower(name) does. */
export function sameKeyName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** Something of the owner's that has a name already: a key, or a request not yet picked up. */
export type NameHolder =
  | { what: "key"; name: string; prefix: string; expired: boolean }
  | { what: "request"; name: string; approved: boolean };

/**
 * Why `name` cannot be used, naming what has it, then `advice` (what the person asking can do); null
 * when the name is free.
 */
export function nameClash(
  name: string,
  holders: readonly NameHolder[],
  advice = "Choose another name.",
): string | null {
  const holder = holders.find((h) => sameKeyName(h.name, name));
  if (!holder) return null;
  const taken = `“${name.trim()}” is taken:`;
  const why =
    holder.what === "request"
      ? holder.approved
        ? "a key of that name was approved for this account and waits on the keys page"
        : "this account has asked for a key of that name, waiting for approval"
      : holder.expired
        ? `it is the name of this account's expired key ${holder.prefix}…, which keeps it until it is revoked (under “Revoked and expired”)`
        : `this account already has a key of that name (${holder.prefix}…)`;
  return `${taken} ${why}. ${advice}`;
}

/**
 * The names an owner's keys and open requests hold, read inside the caller's transaction (which has
 * locked the owner's row, so two changes at once cannot both find a name free). `except` leaves out
 * the key being renamed or the request being picked up.
 */
export async function heldNames(
  tx: Prisma.TransactionClient,
  userId: string,
  except: { keyId?: string; requestId?: string } = {},
  now = new Date(),
): Promise<NameHolder[]> {
  const [keys, requests] = await Promise.all([
    // The index's predicate: a client key neither revoked nor rotated away (a replacement takes its
    // predecessor's name over). An expired key still holds its name: an index cannot depend on the time.
    tx.apiKey.findMany({
      where: { userId, kind: "client", status: "active", replacedBy: null, id: { not: except.keyId } },
      select: { name: true, prefix: true, expiresAt: true },
    }),
    tx.keyRequest.findMany({
      where: {
        userId,
        id: { not: except.requestId },
        OR: [{ status: "pending" }, { status: "approved", keyId: null }],
      },
      select: { name: true, status: true },
    }),
  ]);
  return [
    ...keys.map((k) => ({
      what: "key" as const,
      name: k.name,
      prefix: k.prefix,
      expired: k.expiresAt !== null && k.expiresAt <= now,
    })),
    ...requests.map((r) => ({ what: "request" as const, name: r.name, approved: r.status === "approved" })),
  ];
}

/** A write refused by the name index: another request took the name between our check and the write. */
export function isKeyNameTaken(err: unknown): boolean {
  if (typeof err !== "object" || err === null || (err as { code?: unknown }).code !== "P2002") return false;
  return JSON.stringify(err).includes(KEY_NAME_INDEX) || String((err as Error).message).includes(KEY_NAME_INDEX);
}
