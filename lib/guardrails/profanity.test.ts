import fs from "node:fs";
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from "obscenity";
import { describe, expect, it } from "vitest";
import { loadPiiCorpus } from "./corpus-score.ts";
import { profanityCheck, transformer } from "./profanity.ts";

/** obscenity's own transform, as its matcher runs it before matching. */
type Inside = {
  applyTransformers(text: string, set: unknown): [number[], string];
  blacklistMatcherTransformers: unknown;
};
const own = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
const inside = own as unknown as Inside;
const ownTransform = (text: string) => inside.applyTransformers(text, inside.blacklistMatcherTransformers)[1];

const texts = [
  "sh1t happens",
  "what a b1tch, $hit and a$$hole",
  "an assassin in class",
  "the cocktail at Scunthorpe",
  "fuuuuuck this, boooo, seeeee, aaaa",
  "ＦＵＣＫ in full width, 𝐟𝐮𝐜𝐤 in bold, 🅵🆄🅲🅺",
  "café, naïve, Ελληνικά, 日本語, emoji 👍🏽 and a lone \ud800 surrogate",
  "",
  ...loadPiiCorpus().samples.map((s) => s.text),
  ...(
    JSON.parse(fs.readFileSync(new URL("./injection-corpus.json", import.meta.url), "utf8")) as {
      samples: { text: string }[];
    }
  ).samples.map((s) => s.text),
];

describe("profanity, found faster", () => {
  it("transforms text exactly as obscenity's matcher does, twice over (the table filled, then read)", () => {
    const { blacklistMatcherTransformers } = englishRecommendedTransformers;
    const transform = transformer(blacklistMatcherTransformers as never);
    for (let round = 0; round < 2; round++)
      for (const text of texts) expect(transform(text), text).toBe(ownTransform(text));
  });

  it("says a text may hold profanity whenever obscenity finds some, and not for clean text", () => {
    const check = profanityCheck();
    for (const text of texts) if (own.getAllMatches(text).length > 0) expect(check.any(text), text).toBe(true);
    expect(check.any("The quarterly report covers revenue and costs.")).toBe(false);
    expect(check.any("sh1t")).toBe(true);
  });
});
