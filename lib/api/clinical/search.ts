import { eng } from "stopword";
import { listConditions, type Category, type Condition } from "./conditions.ts";

const STOPWORDS = new Set(eng);
// BM25's usual constants; the name field counts this many times a body match, so a condition
// named by the query outranks one that mentions it in passing.
const K1 = 1.2;
const B = 0.75;
const NAME_BOOST = 3;
const SNIPPET_RADIUS = 90;
const TERM = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*/gu;

/** Folds a word to its index form: lower case, no accents, a plural reduced to its singular. */
export function stem(word: string): string {
  const w = word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/**
 * Index terms of a text: words, and dotted codes kept whole ("F84.0", "6A01.20") so a code finds its
 * condition; stop words and single letters dropped.
 */
export function tokenise(text: string): string[] {
  const terms: string[] = [];
  for (const m of text.matchAll(TERM)) {
    const word = m[0].toLowerCase();
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}

type Field = { tf: Map<string, number>; length: number };
type IndexedCondition = { condition: Condition; name: Field; body: Field; plain: string };

export type SearchIndex = {
  docs: IndexedCondition[];
  df: Map<string, number>;
  avgName: number;
  avgBody: number;
};

export type SearchHit = { id: string; name: string; category: Category; score: number; snippet: string };

function field(text: string): Field {
  const tf = new Map<string, number>();
  const terms = tokenise(text);
  for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { tf, length: terms.length };
}

/** Markdown reduced to readable text for snippets: no headings marks, emphasis or list bullets. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/^#+\s.*$/gm, " ")
    .replace(/^\s*[-*]\s+/gm, "")
    .replace(/[*_`]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Builds the BM25 index over each condition's name (with its codes) and its document body (all sections). */
export function buildSearchIndex(conditions: readonly Condition[]): SearchIndex {
  const docs = conditions.map((condition) => {
    const body = Object.values(condition.sections).join("\n\n");
    // A condition's own codes count as its name: searching "F84.0" puts autism before conditions that cite it.
    const name = [condition.name, condition.icd10, condition.icd11 ?? ""].join(" ");
    return { condition, name: field(name), body: field(body), plain: plainText(body) };
  });
  const df = new Map<string, number>();
  for (const d of docs) {
    for (const term of new Set([...d.name.tf.keys(), ...d.body.tf.keys()])) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const avg = (pick: (d: IndexedCondition) => number) =>
    docs.reduce((n, d) => n + pick(d), 0) / Math.max(docs.length, 1);
  return { docs, df, avgName: avg((d) => d.name.length), avgBody: avg((d) => d.body.length) };
}

function bm25(tf: number, length: number, avgLength: number, idf: number): number {
  if (tf === 0) return 0;
  return (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / (avgLength || 1)));
}

/** Ranked conditions for a free-text query, best first; ties keep the catalogue order. */
export function searchConditions(index: SearchIndex, query: string, limit: number): SearchHit[] {
  const terms = [...new Set(tokenise(query))];
  if (terms.length === 0) return [];
  const n = index.docs.length;
  const scored: Array<{ doc: IndexedCondition; score: number }> = [];
  for (const doc of index.docs) {
    let score = 0;
    for (const term of terms) {
      const df = index.df.get(term) ?? 0;
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += NAME_BOOST * bm25(doc.name.tf.get(term) ?? 0, doc.name.length, index.avgName, idf);
      score += bm25(doc.body.tf.get(term) ?? 0, doc.body.length, index.avgBody, idf);
    }
    if (score > 0) scored.push({ doc, score });
  }
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, limit).map(({ doc, score }) => ({
    id: doc.condition.slug,
    name: doc.condition.name,
    category: doc.condition.category,
    score: Math.round(score * 1000) / 1000,
    snippet: buildSnippet(doc.plain, terms),
  }));
}

/** About two lines of text around the first word that matches a query term, cut at word boundaries. */
export function buildSnippet(plain: string, terms: readonly string[]): string {
  let at = -1;
  let end = -1;
  for (const m of plain.matchAll(TERM)) {
    if (terms.includes(stem(m[0]))) {
      at = m.index;
      end = m.index + m[0].length;
      break;
    }
  }
  if (at === -1) return clip(plain, 0, SNIPPET_RADIUS * 2);
  return clip(plain, at - SNIPPET_RADIUS, end + SNIPPET_RADIUS);
}

function clip(text: string, from: number, to: number): string {
  let start = Math.max(0, from);
  let stop = Math.min(text.length, to);
  if (start > 0) start = text.indexOf(" ", start) + 1 || start;
  if (stop < text.length) stop = text.lastIndexOf(" ", stop) > start ? text.lastIndexOf(" ", stop) : stop;
  return `${start > 0 ? "…" : ""}${text.slice(start, stop).trim()}${stop < text.length ? "…" : ""}`;
}

let shared: SearchIndex | undefined;

/** The index of the shipped conditions, built on the first search and kept. */
export function conditionSearchIndex(): SearchIndex {
  shared ??= buildSearchIndex(listConditions());
  return shared;
}
