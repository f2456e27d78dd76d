// The personal-data check scored on its labelled corpus (pii-corpus.json): the test asserts a floor,
// the bench reports the figures.
import fs from "node:fs";
import { findPii, type PiiKind } from "./pii.ts";

type Corpus = { samples: Array<{ text: string; expect: Array<[PiiKind, string]> }> };

export function loadPiiCorpus(): Corpus {
  return JSON.parse(fs.readFileSync(new URL("./pii-corpus.json", import.meta.url), "utf8")) as Corpus;
}

/** Precision and recall over the corpus: a finding counts when its kind and exact value are labelled. */
export function corpusScore(corpus = loadPiiCorpus()): {
  precision: number;
  recall: number;
  samples: number;
  misses: string[];
} {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const misses: string[] = [];
  for (const s of corpus.samples) {
    const got = findPii(s.text).map((f) => `${f.kind}:${f.value}`);
    const want = s.expect.map(([kind, value]) => `${kind}:${value}`);
    for (const g of got) {
      if (want.includes(g)) tp++;
      else {
        fp++;
        misses.push(`found ${g} in "${s.text}"`);
      }
    }
    for (const w of want) {
      if (got.includes(w)) continue;
      fn++;
      misses.push(`missed ${w} in "${s.text}"`);
    }
  }
  return { precision: tp / (tp + fp), recall: tp / (tp + fn), samples: corpus.samples.length, misses };
}
