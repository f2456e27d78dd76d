import { describeLanguage, type LanguageLegend } from "./languages.ts";
import { parseEtymology, type EtymologyRecord, type EtymonItem } from "./lineage.ts";
import { ancestorKey, type EtymologyStore } from "./store.ts";

/** A form with its language spelled out: `{lang: "AS.", language: "Anglo-Saxon (Old English)", …}`. */
export type Etymon = EtymonItem & {
  language: string;
  family: string;
  branch: string;
  era: number | null;
  period?: string;
};

export type Definition = { definition: string; part_of_speech: string | null };

export type RelatedWord = {
  word: string;
  relation: "cites" | "cited_by" | "shares_ancestor";
  /** For shares_ancestor: the shared form, e.g. "L. ante". */
  via?: string;
};

/**
 * An English headword cognate with this one: it descends from one of this word's sister forms
 * (`from_cognate_form`, via "L. cor" for heart → cordial) or carries the same Webster root number
 * (`shares_root`, via "√137").
 */
export type CognateHeadword = { word: string; relation: "from_cognate_form" | "shares_root"; via: string };

export type Exploration = {
  word: string;
  headword: string;
  pronunciation: string | null;
  parts_of_speech: string[];
  definitions: Definition[];
  etymology: string | null;
  /** Oldest ancestor first, the form nearest the headword last. */
  lineage: Etymon[];
  cognates: { forms: Etymon[]; headwords: CognateHeadword[] };
  related: RelatedWord[];
  roots: string[];
};

/** Related words, and cognate headwords, listed per word (each list most specific link first). */
export const MAX_LINKED_WORDS = 20;

export function expandEtymon(item: EtymonItem, legend: LanguageLegend): Etymon {
  const info = describeLanguage(item.lang, legend);
  return {
    ...item,
    language: info.name,
    family: info.family,
    branch: info.branch,
    era: info.era,
    ...(info.period ? { period: info.period } : {}),
  };
}

/**
 * GCIDE does not tag each definition with its part of speech. Webster words every verb sense as
 * "To …", so such a definition is the verb's and the others belong to the first non-verb part.
 */
export function inferPartOfSpeech(definition: string, pos: string[]): string | null {
  const verbal = /^(\([^)]*\)\s*)*To\s/.test(definition);
  if (verbal && pos.includes("verb")) return "verb";
  return pos.find((p) => p !== "verb") ?? pos[0] ?? null;
}

function linked(store: EtymologyStore, ranks: Iterable<number>, self: string): string[] {
  const words = new Set<string>();
  for (const rank of [...new Set(ranks)].sort((a, b) => a - b)) {
    const word = store.records[rank]!.word;
    if (word !== self) words.add(word);
  }
  return [...words];
}

/** Links to other headwords, one per word and never to `self`, that stop at MAX_LINKED_WORDS. */
function linkList<T extends { word: string }>(self: string): { links: T[]; add: (link: T) => void } {
  const links: T[] = [];
  const seen = new Set([self]);
  const add = (link: T) => {
    if (seen.has(link.word) || links.length >= MAX_LINKED_WORDS) return;
    seen.add(link.word);
    links.push(link);
  };
  return { links, add };
}

/** A cited word as a headword: exact, else without the affix hyphen ("ante-" → "ante"). */
function citedHeadword(store: EtymologyStore, cited: string): string | null {
  if (store.byWord.has(cited)) return cited;
  const bare = cited.replace(/^-+|-+$/g, "");
  return bare && store.byWord.has(bare) ? bare : null;
}

/**
 * Related words, capped at MAX_LINKED_WORDS: the words this etymology cites, then headwords whose
 * etymology cites this word, then headwords descended from one of this word's ancestor forms.
 */
export function relatedWords(
  store: EtymologyStore,
  record: EtymologyRecord,
  cites: string[],
  lineage: EtymonItem[],
): RelatedWord[] {
  const { links, add } = linkList<RelatedWord>(record.word);
  for (const cited of cites) {
    const word = citedHeadword(store, cited);
    if (word) add({ word, relation: "cites" });
  }
  for (const word of linked(store, store.citedBy.get(record.word) ?? [], record.word))
    add({ word, relation: "cited_by" });
  // Nearest ancestors first: sharing the Old English form says more than sharing a Sanskrit root.
  for (const item of [...lineage].reverse()) {
    for (const word of linked(store, store.byAncestor.get(ancestorKey(item.lang, item.form)) ?? [], record.word)) {
      add({ word, relation: "shares_ancestor", via: `${item.lang} ${item.form}` });
    }
  }
  return links;
}

/**
 * English cognates, capped at MAX_LINKED_WORDS: headwords whose lineage holds one of this word's
 * sister-language forms first (a direct link), then headwords sharing a Webster root number (√).
 */
export function cognateHeadwords(
  store: EtymologyStore,
  record: EtymologyRecord,
  cognates: EtymonItem[],
  roots: string[],
): CognateHeadword[] {
  const { links, add } = linkList<CognateHeadword>(record.word);
  const addAll = (words: string[], relation: CognateHeadword["relation"], via: string) => {
    for (const word of words) add({ word, relation, via });
  };
  for (const item of cognates)
    addAll(
      linked(store, store.byAncestor.get(ancestorKey(item.lang, item.form)) ?? [], record.word),
      "from_cognate_form",
      `${item.lang} ${item.form}`,
    );
  for (const root of roots) addAll(linked(store, store.byRoot.get(root) ?? [], record.word), "shares_root", `√${root}`);
  return links;
}

/** Everything the explore endpoint says about one headword, before graph building. */
export function exploreWord(store: EtymologyStore, word: string): Exploration | null {
  const rank = store.byWord.get(word);
  if (rank === undefined) return null;
  const record = store.records[rank]!;
  const parsed = parseEtymology(record, store.legend);
  return {
    word: record.word,
    headword: record.headword,
    pronunciation: record.pronunciation,
    parts_of_speech: record.pos,
    definitions: record.definitions.map((definition) => ({
      definition,
      part_of_speech: inferPartOfSpeech(definition, record.pos),
    })),
    etymology: record.etymology,
    lineage: parsed.lineage.map((item) => expandEtymon(item, store.legend)),
    cognates: {
      forms: parsed.cognates.map((item) => expandEtymon(item, store.legend)),
      headwords: cognateHeadwords(store, record, parsed.cognates, parsed.roots),
    },
    related: relatedWords(store, record, parsed.cites, parsed.lineage),
    roots: parsed.roots,
  };
}
