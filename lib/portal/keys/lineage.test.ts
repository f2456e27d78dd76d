import { describe, expect, it } from "vitest";
import type { KeySummary } from "../../gateway/keys/key-list.ts";
import { arrangeKeys } from "./lineage.ts";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const hoursFromNow = (h: number) => new Date(NOW + h * 3_600_000).toISOString();

let n = 0;
/** A key as listKeys gives it; `at` orders creation. */
function key(id: string, fields: Partial<KeySummary> = {}): KeySummary {
  n += 1;
  return {
    id,
    name: "laptop",
    kind: "client",
    prefix: `sk_${id}`,
    email: "a@example.test",
    status: "active",
    scopes: [],
    granted_scopes: [],
    limits: { day: null, minute: null, concurrency: null },
    token_limits: { minute: null, day: null },
    team_id: null,
    cache: { max_age: null, semantic: false, scope: "key" },
    models: { allow: [], deny: [] },
    guardrails: null,
    lineage_id: id,
    replaced_by: null,
    created_at: new Date(Date.parse("2026-01-01T00:00:00Z") + n * 60_000).toISOString(),
    last_used_at: null,
    expires_at: null,
    ...fields,
  };
}
const ids = (keys: { key: KeySummary }[]) => keys.map((k) => k.key.id);

describe("arrangeKeys", () => {
  it("shows a rotated key under its replacement while its grace period lasts", () => {
    const old = key("a", { replaced_by: "b", expires_at: hoursFromNow(24) });
    const fresh = key("b", { lineage_id: "a" });
    const { current, retired } = arrangeKeys([old, fresh], NOW);
    expect(current).toEqual([{ key: fresh, predecessors: [old], replacedBy: null }]);
    expect(retired).toEqual([]);
  });

  it("follows several rotations to the newest working key, newest predecessor first", () => {
    const a = key("a", { replaced_by: "b", expires_at: hoursFromNow(1) });
    const b = key("b", { lineage_id: "a", replaced_by: "c", expires_at: hoursFromNow(24) });
    const c = key("c", { lineage_id: "a" });
    const { current } = arrangeKeys([a, b, c], NOW);
    expect(current).toHaveLength(1);
    expect(current[0]!.key).toBe(c);
    expect(current[0]!.predecessors.map((k) => k.id)).toEqual(["b", "a"]);
  });

  it("folds revoked and expired keys away, most recent first, naming a rotated one's replacement", () => {
    const rotatedOut = key("a", { replaced_by: "b", expires_at: hoursFromNow(-1) });
    const fresh = key("b", { lineage_id: "a" });
    const revoked = key("c", { name: "old", status: "revoked" });
    const expired = key("d", { name: "trial", expires_at: hoursFromNow(-48) });
    const { current, retired } = arrangeKeys([rotatedOut, fresh, revoked, expired], NOW);
    expect(current).toEqual([{ key: fresh, predecessors: [], replacedBy: null }]);
    expect(retired).toEqual([
      { key: expired, state: "expired", replacedBy: null },
      { key: revoked, state: "revoked", replacedBy: null },
      { key: rotatedOut, state: "expired", replacedBy: fresh },
    ]);
  });

  it("keeps a key in its grace period on its own when its replacement stopped working, saying so", () => {
    const old = key("a", { replaced_by: "b", expires_at: hoursFromNow(5) });
    const revokedReplacement = key("b", { lineage_id: "a", status: "revoked" });
    const { current, retired } = arrangeKeys([old, revokedReplacement], NOW);
    expect(current).toEqual([{ key: old, predecessors: [], replacedBy: revokedReplacement }]);
    expect(ids(retired)).toEqual(["b"]);
  });

  it("keeps each lineage where it began, so rotating a key does not move it down the list", () => {
    const first = key("a", { replaced_by: "c", expires_at: hoursFromNow(2) });
    const second = key("b", { name: "server" });
    const console = key("x", { name: "Portal consoles", kind: "console" });
    const firstReplacement = key("c", { lineage_id: "a" });
    expect(ids(arrangeKeys([first, second, console, firstReplacement], NOW).current)).toEqual(["c", "b", "x"]);
  });

  it("counts a key expiring later as working, and one whose expiry has come as expired", () => {
    const soon = key("a", { expires_at: hoursFromNow(1) });
    const gone = key("b", { expires_at: new Date(NOW).toISOString() });
    const { current, retired } = arrangeKeys([soon, gone], NOW);
    expect(ids(current)).toEqual(["a"]);
    expect(retired).toEqual([{ key: gone, state: "expired", replacedBy: null }]);
  });
});
