/** How well a query matched; lower is better, and results are ranked by it. */
export type MatchTier = "exact" | "prefix" | "substring";

export const TIER_ORDER: Record<MatchTier, number> = { exact: 0, prefix: 1, substring: 2 };

/** "Nǀuu", "NǀUU" and "Nǀuu " compare equal; "Bokmål" matches "bokmal". Case and diacritics are folded. */
export function foldText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim().replace(/\s+/g, " ");
}

/** The tier at which `query` matches `candidate`, both already folded; null when it does not match. */
export function matchTier(candidate: string, query: string): MatchTier | null {
  if (!query) return null;
  if (candidate === query) return "exact";
  if (candidate.startsWith(query)) return "prefix";
  if (candidate.includes(query)) return "substring";
  return null;
}

/** The better of two tiers, treating null as "no match". */
export function bestTier(a: MatchTier | null, b: MatchTier | null): MatchTier | null {
  if (a === null) return b;
  if (b === null) return a;
  return TIER_ORDER[a] <= TIER_ORDER[b] ? a : b;
}
