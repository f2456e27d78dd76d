import type { KeySummary } from "../../gateway/keys/key-list.ts";
import { keyState } from "../pages/format.ts";

/**
 * A key that works, with the keys it replaced that still work too (rotated, in their grace period),
 * newest first: one lineage on the keys page instead of two look-alike rows with the same name.
 */
export type CurrentKey = {
  key: KeySummary;
  /** Rotated keys still in their grace period, newest first; each works until its `expires_at`. */
  predecessors: KeySummary[];
  /**
   * Set when this key was itself rotated but its replacement no longer works (revoked, or expired):
   * it is in its grace period with nothing to hand over to, and cannot be rotated again.
   */
  replacedBy: KeySummary | null;
};

/** A key that no longer works, with the key that replaced it when it was rotated. */
export type RetiredKey = { key: KeySummary; state: "revoked" | "expired"; replacedBy: KeySummary | null };

/**
 * Sorts a user's keys for the keys page: the working ones grouped by rotation (each key under the
 * newest working key it was replaced by), in the order their lineages began so a rotation does not
 * move a key about; the revoked and expired ones apart, most recent first.
 */
export function arrangeKeys(
  keys: readonly KeySummary[],
  now = Date.now(),
): { current: CurrentKey[]; retired: RetiredKey[] } {
  const byId = new Map(keys.map((k) => [k.id, k]));
  const works = (k: KeySummary): boolean => {
    const state = keyState(k, now);
    return state === "active" || state === "expiring";
  };
  /** The newest working key a working key hands over to, following its rotations. */
  const head = (k: KeySummary): KeySummary => {
    // Replacements are always newer keys; the set only keeps a damaged row from looping forever.
    const seen = new Set([k.id]);
    for (let at = k; ;) {
      const next = at.replaced_by ? byId.get(at.replaced_by) : undefined;
      if (!next || !works(next) || seen.has(next.id)) return at;
      seen.add(next.id);
      at = next;
    }
  };

  const groups = new Map<string, CurrentKey>();
  for (const k of keys.filter(works)) {
    const h = head(k);
    if (!groups.has(h.id)) {
      const replacement = h.replaced_by ? (byId.get(h.replaced_by) ?? null) : null;
      groups.set(h.id, { key: h, predecessors: [], replacedBy: replacement });
    }
    if (h.id !== k.id) groups.get(h.id)!.predecessors.push(k);
  }
  const started = (k: KeySummary) => byId.get(k.lineage_id)?.created_at ?? k.created_at;
  const current = [...groups.values()].sort((a, b) => started(a.key).localeCompare(started(b.key)));
  for (const group of current) group.predecessors.sort((a, b) => b.created_at.localeCompare(a.created_at));

  const retired = keys
    .filter((k) => !works(k))
    .map((k) => ({
      key: k,
      state: keyState(k, now) === "revoked" ? ("revoked" as const) : ("expired" as const),
      replacedBy: k.replaced_by ? (byId.get(k.replaced_by) ?? null) : null,
    }))
    .sort((a, b) => b.key.created_at.localeCompare(a.key.created_at));
  return { current, retired };
}
