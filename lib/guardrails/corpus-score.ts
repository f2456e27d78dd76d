// The personal-data and injection checks scored on their labelled corpora (pii-corpus.json,
// injection-corpus.json): the test asserts a floor,
// the bench reports the figures.
import fs from "node:fs";
import { DEFAULT_INJECTION_THRESHOLD, scoreInjection } from "./injection.ts";
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

type InjectionCorpus = { samples: Array<{ text: string; injection: boolean }> };

/** Precision and recall of the injection check (at the default threshold) over injection-corpus.json. */
export function injectionCorpusScore(): { precision: number; recall: number; samples: number; misses: string[] } {
  const corpus = JSON.parse(
    fs.readFileSync(new URL("./injection-corpus.json", import.meta.url), "utf8"),
  ) as InjectionCorpus;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const misses: string[] = [];
  for (const s of corpus.samples) {
    const { score } = scoreInjection(s.text);
    const fired = score >= DEFAULT_INJECTION_THRESHOLD;
    if (fired && s.injection) tp++;
    else if (fired) {
      fp++;
      misses.push(`fired (${score}) on "${s.text.slice(0, 80)}"`);
    } else if (s.injection) {
      fn++;
      misses.push(`missed (${score}) "${s.text.slice(0, 80)}"`);
    }
  }
  return { precision: tp / (tp + fp), recall: tp / (tp + fn), samples: corpus.samples.length, misses };
}
