import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { clearAnswers } from "../../llm/cache/answer-cache.ts";
import type { RoutingEditor } from "./routing-actions.ts";

/** What the operator's "Clear the response cache" answers. */
export type CacheActionState = { message?: string; error?: string };

/**
 * Clears every entry of the response cache, every key's and every shared alias's, for the operator
 * only; audited. Callers clear their own with DELETE /v1/cache.
 */
export async function clearCacheAction(rt: Runtime, editor: RoutingEditor | null): Promise<CacheActionState> {
  if (!editor?.operator) return { error: "operators only: sign in with an address listed in ADMIN_EMAILS" };
  let deleted: number;
  let vectors: number;
  try {
    ({ answers: deleted, vectors } = await clearAnswers(rt, undefined));
  } catch (err) {
    return { error: err instanceof Error ? err.message : "the cache could not be cleared" };
  }
  await rt.db.prisma.auditLog.create({
    data: { actor: editor.actor, action: "cache.clear", target: "response cache", detail: { deleted, vectors } },
  });
  return { message: `Cleared: ${deleted} answer${deleted === 1 ? "" : "s"} removed from the response cache.` };
}
