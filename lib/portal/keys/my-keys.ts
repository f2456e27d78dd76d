import type { Database } from "../../db/client.ts";
import { isOperatorScope } from "../../gateway/keys/record.ts";

/**
 * A user's key requests, newest first, as their keys page lists them: not withdrawn, and not declined
 * ones they dismissed.
 */
export async function keyRequestsOf(db: Database, userId: string) {
  return db.prisma.keyRequest.findMany({ where: { userId, dismissedAt: null }, orderBy: { createdAt: "desc" } });
}

/**
 * The areas the operator granted one of the user's keys ([] = every area; operator scopes are powers,
 * not areas), which decide whether the scope form offers "every area"; null when the key is not theirs.
 */
export async function grantedAreasOf(db: Database, keyId: string, userId: string): Promise<string[] | null> {
  const key = await db.prisma.apiKey.findFirst({ where: { id: keyId, userId }, select: { grantedScopes: true } });
  return key ? key.grantedScopes.filter((s) => !isOperatorScope(s)) : null;
}
