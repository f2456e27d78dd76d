import nlp from "compromise";
import { eng } from "stopword";
import { lemmatizer } from "../../text/lemmatizer.ts";

export type Keyword = { keyword: string; score: number; count: number };

const STOP = new Set([
  ...eng,
  "also",
  "may",
  "might",
  "must",
  "shall",
  "can",
  "could",
  "would",
  "should",
  "will",
  "just",
  "like",
  "use",
  "used",
  "using",
]);
const MAX_PHRASE_WORDS = 3;
const WORD = /^[\p{L}\p{N}][\p{L}\p{N}'’-]*$/u;

/** A word's dictionary form for grouping: plurals to singular ("engines" → "engine"). */
function lemma(word: string): string {
  return /^\p{L}+$/u.test(word) ? lemmatizer().noun(word) : word;
}

type Term = { normal?: string; tags?: string[]; post?: string };

// Parts of speech that end a candidate phrase, as stop words do: keyphrases are nouns and their modifiers.
const BREAKING_TAGS = ["Verb", "Adverb", "Preposition", "Conjunction", "Determiner", "Pronoun", "QuestionWord"];

/** Candidate phrases: runs of content words, split at stop words, verbs, punctuation and every 3 words. */
function candidatePhrases(text: string): string[][] {
  const phrases: string[][] = [];
  const sentences = nlp(text).json({ terms: { normal: true } }) as Array<{ terms: Term[] }>;
  for (const sentence of sentences) {
    let current: string[] = [];
    const close = () => {
      if (current.length) phrases.push(current);
      current = [];
    };
    for (const term of sentence.terms) {
      const word = (term.normal ?? "").replace(/^['’-]+|['’-]+$/g, "");
      const breaks =
        !word ||
        STOP.has(word) ||
        !WORD.test(word) ||
        /^\d+$/.test(word) ||
        (term.tags ?? []).some((t) => BREAKING_TAGS.includes(t));
      if (breaks) close();
      else {
        current.push(word);
        if (current.length === MAX_PHRASE_WORDS) close();
      }
      if (/[.,;:!?()[\]{}"“”«»/\\|–—]/.test(term.post ?? "")) close();
    }
    close();
  }
  return phrases;
}

/**
 * RAKE (Rose et al., 2010) over part-of-speech-filtered candidates: a word scores degree/frequency,
 * a phrase the sum of its words, weighted by how often the phrase occurs. Words are grouped by lemma
 * so "engine" and "engines" count together; scores are scaled so the best keyword is 1.
 */
export function extractKeywords(text: string, topK = 10): Keyword[] {
  const phrases = candidatePhrases(text);

  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const phrase of phrases) {
    for (const word of phrase) {
      const l = lemma(word);
      frequency.set(l, (frequency.get(l) ?? 0) + 1);
      degree.set(l, (degree.get(l) ?? 0) + phrase.length);
    }
  }

  const candidates = new Map<string, { score: number; count: number; forms: Map<string, number> }>();
  for (const phrase of phrases) {
    const id = phrase.map(lemma).join(" ");
    const score = phrase.reduce((sum, w) => sum + degree.get(lemma(w))! / frequency.get(lemma(w))!, 0);
    const entry = candidates.get(id) ?? { score, count: 0, forms: new Map<string, number>() };
    entry.count += 1;
    const surface = phrase.join(" ");
    entry.forms.set(surface, (entry.forms.get(surface) ?? 0) + 1);
    candidates.set(id, entry);
  }

  const ranked = [...candidates.values()]
    .map((c) => ({ keyword: mostCommon(c.forms), raw: c.score * Math.log2(1 + c.count), count: c.count }))
    .sort((a, b) => b.raw - a.raw || b.count - a.count || a.keyword.localeCompare(b.keyword))
    .slice(0, topK);
  const best = ranked[0]?.raw ?? 1;
  return ranked.map((k) => ({ keyword: k.keyword, score: Math.round((k.raw / best) * 1000) / 1000, count: k.count }));
}

function mostCommon(forms: Map<string, number>): string {
  return [...forms].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
}
