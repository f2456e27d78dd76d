import type { CorpusIndex } from "./inverted-index.ts";
import { findMatches, parseQuery, type Matches } from "./query.ts";

export type Share = { count: number; tokens: number; per_million: number };
export type FrequencyProfile = {
  count: number;
  tokens: number;
  per_million: number;
  by_decade: Array<{ decade: number } & Share>;
  by_register: Array<{ register: string } & Share>;
};

/**
 * How often a query occurs, overall and per decade and register of the documents it occurs in. Every
 * decade and register of the corpus is listed, zero counts included, so the rows can be charted as
 * they are; per_million is relative to that group's own token count.
 */
export function frequencyProfile(index: CorpusIndex, matches: Matches): FrequencyProfile {
  const perDoc = new Uint32Array(index.docs.length);
  let d = 0;
  for (const s of matches.starts) {
    while (index.docStarts[d + 1]! <= s) d++;
    perDoc[d]!++;
  }
  const decades = new Map<number, Share>();
  const registers = new Map<string, Share>();
  index.docs.forEach((doc, i) => {
    add(decades, doc.decade, perDoc[i]!, doc.tokens);
    add(registers, doc.register, perDoc[i]!, doc.tokens);
  });
  return profileOf(matches.total, index.tokens.length, decades, registers);
}

/** Profiles of several corpora as one: counts and tokens add up per decade and per register. */
export function combineProfiles(profiles: FrequencyProfile[]): FrequencyProfile {
  const decades = new Map<number, Share>();
  const registers = new Map<string, Share>();
  for (const p of profiles) {
    for (const row of p.by_decade) add(decades, row.decade, row.count, row.tokens);
    for (const row of p.by_register) add(registers, row.register, row.count, row.tokens);
  }
  const count = profiles.reduce((sum, p) => sum + p.count, 0);
  const tokens = profiles.reduce((sum, p) => sum + p.tokens, 0);
  return profileOf(count, tokens, decades, registers);
}

/** A profile from its totals and per-group shares: rates added, decades in order, registers commonest first. */
function profileOf(
  count: number,
  tokens: number,
  decades: Map<number, Share>,
  registers: Map<string, Share>,
): FrequencyProfile {
  return {
    count,
    tokens,
    per_million: perMillion(count, tokens),
    by_decade: [...decades]
      .map(([decade, share]) => ({ decade, ...withRate(share) }))
      .sort((a, b) => a.decade - b.decade),
    by_register: [...registers]
      .map(([register, share]) => ({ register, ...withRate(share) }))
      .sort((a, b) => b.count - a.count || a.register.localeCompare(b.register)),
  };
}

function add<K>(groups: Map<K, Share>, key: K, count: number, tokens: number): void {
  const share = groups.get(key) ?? { count: 0, tokens: 0, per_million: 0 };
  share.count += count;
  share.tokens += tokens;
  groups.set(key, share);
}

const withRate = (s: Share): Share => ({
  count: s.count,
  tokens: s.tokens,
  per_million: perMillion(s.count, s.tokens),
});

export const perMillion = (count: number, tokens: number) =>
  tokens === 0 ? 0 : Math.round((count / tokens) * 1e6 * 100) / 100;

/** The frequency profile of a word (or wildcard or phrase) in one index. */
export const frequencyOf = (index: CorpusIndex, word: string): FrequencyProfile =>
  frequencyProfile(index, findMatches(index, parseQuery(word)));
