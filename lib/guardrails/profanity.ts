// Profanity from obscenity's English list, found faster than its matcher finds it on clean text (nearly
// all text). The matcher transforms the text (confusables and leetspeak resolved, lower-cased, repeats
// collapsed) one character at a time through a chain of transformer objects, works out a whitelist
// ("assassin"), then runs each of its 119 patterns over the result in turn. Here the chain's stateless
// head is a table filled as characters are first seen, its stateful tail (collapsing repeats) runs as
// obscenity's own, and the patterns run as one alternation: only a text where one matches goes through
// the matcher, for the places and its whitelist. profanity.test.ts holds both to obscenity's answers.
import {
  englishDataset,
  englishRecommendedBlacklistMatcherTransformers,
  englishRecommendedTransformers,
  RegExpMatcher,
  type MatchPayload,
} from "obscenity";

type Simple = { type: 0; transform: (char: number) => number | undefined };
type Stateful = { type: 1; factory: () => { transform(char: number): number | undefined; reset(): void } };
type Transformer = Simple | Stateful;

/** What obscenity's matcher keeps inside (0.4): its patterns' compiled forms. */
type MatcherInside = { blacklistedTerms: { regExp: RegExp }[] };

/** Marks a character the stateless transformers drop; a table entry of 0 is "not worked out yet". */
const DROPPED = -1;

/**
 * The text as obscenity's matcher transforms it before matching (RegExpMatcher.applyTransformers): the
 * same characters, without its index map, which only matches need.
 */
export function transformer(transformers: readonly Transformer[]): (text: string) => string {
  const head = transformers.findIndex((t) => t.type !== 0);
  const simple = (head < 0 ? transformers : transformers.slice(0, head)) as Simple[];
  const tail = (head < 0 ? [] : transformers.slice(head)).map((t) =>
    t.type === 0 ? { transform: t.transform, reset: () => {} } : t.factory(),
  );
  const bmp = new Int32Array(0x10000);
  const astral = new Map<number, number>();
  const throughHead = (char: number): number => {
    let out: number | undefined = char;
    for (let i = 0; i < simple.length && out !== undefined; i++) out = simple[i]!.transform(out);
    return out ?? DROPPED;
  };
  return (text) => {
    const out: number[] = [];
    for (let i = 0; i < text.length; i++) {
      let char = text.charCodeAt(i);
      if (char >= 0xd800 && char <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          char = (char - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
          i++;
        }
      }
      let mapped: number | undefined;
      if (char < 0x10000) {
        mapped = bmp[char]! || (bmp[char] = throughHead(char));
      } else {
        mapped = astral.get(char);
        if (mapped === undefined) astral.set(char, (mapped = throughHead(char)));
      }
      if (mapped === DROPPED) continue;
      for (let t = 0; t < tail.length && mapped !== undefined; t++) mapped = tail[t]!.transform(mapped);
      if (mapped !== undefined) out.push(mapped);
    }
    for (const t of tail) t.reset();
    let result = "";
    for (let i = 0; i < out.length; i += 4096) result += String.fromCodePoint(...out.slice(i, i + 4096));
    return result;
  };
}

export type ProfanityCheck = { any(text: string): boolean; matches(text: string): MatchPayload[] };

let check: ProfanityCheck | undefined;

/** Made on first use: most policies never ask for it, and the dataset's patterns take a while to build. */
export function profanityCheck(): ProfanityCheck {
  if (check) return check;
  const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  const terms = (matcher as unknown as MatcherInside).blacklistedTerms;
  const anyPattern = new RegExp(
    terms.map((t) => `(?:${t.regExp.source})`).join("|"),
    terms[0]!.regExp.flags.replace("g", ""),
  );
  const transform = transformer(englishRecommendedBlacklistMatcherTransformers as Transformer[]);
  check = {
    any: (text) => anyPattern.test(transform(text)),
    matches: (text) => matcher.getAllMatches(text, true),
  };
  return check;
}
