/**
 * The scope picker's answer. Stored scopes keep the gateway's rule, [] = every area; the form never
 * leaves that rule implied by an empty set of boxes: the person picks "every area" or "only these",
 * and "only these" with nothing ticked is a question back, not a key that may call everything.
 */
export type ScopeMode = "all" | "some";

export function chosenScopes<Area extends string>(
  mode: string | null,
  ticked: readonly Area[],
  granted: readonly string[] = [],
): { scopes: Area[] } | { error: string } {
  const areas = [...new Set(ticked)].sort();
  // A key the operator limited to some areas (`granted`: areas only, no operator scopes) has no
  // "every area" to pick: only areas of the grant.
  if (granted.length) {
    return areas.length
      ? { scopes: areas }
      : { error: `tick at least one area: the operator granted this key ${granted.join(", ")}` };
  }
  if (mode === "all") return { scopes: [] };
  if (mode !== "some") return { error: "choose “Every area” or “Only the areas ticked”" };
  return areas.length ? { scopes: areas } : { error: "tick at least one area, or choose “Every area”" };
}
