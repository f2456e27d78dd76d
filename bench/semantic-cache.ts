// The semantic cache's lookup over many entries: the nearest earlier question among 100,000 vectors of
// one owner and partition (the worst case: every entry in the one graph searched), as the in-process
// index (lib/llm/cache/semantic/vector-index.ts) answers it. Target: p99 <= 5 ms. Baseline in the same
// run: the exact answer by brute force over the same vectors (usearch's SIMD exact search), what the
// index saves. Vectors are random unit vectors of text-embedding-3-small's 1,536 dimensions: with no
// clusters to exploit they are the graph's hardest case. Recall: how often a stored question asked again
// with a little noise finds itself. The embedding call itself is the provider's time, not measured here.
import usearch from "usearch";
import { VectorIndex, type VectorEntry } from "../lib/llm/cache/semantic/vector-index.ts";
import { report } from "./results.ts";

const ENTRIES = Number(process.env.BENCH_SEMANTIC_ENTRIES ?? 100_000);
const DIMS = Number(process.env.BENCH_SEMANTIC_DIMS ?? 1_536);
const QUERIES = Number(process.env.BENCH_SEMANTIC_QUERIES ?? 2_000);
const PAGE = 5_000;

function randomUnit(dims: number): Float32Array {
  const v = new Float32Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    v[i] = Math.random() - 0.5;
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dims; i++) v[i]! /= norm;
  return v;
}

/** `v` moved a little: a question worded a little differently. */
function nudged(v: Float32Array): Float32Array {
  const out = Float32Array.from(v, (x) => x + (Math.random() - 0.5) * 0.01);
  const norm = Math.hypot(...out);
  return out.map((x) => x / norm);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

function main() {
  const index = new VectorIndex(ENTRIES);
  const expiresAt = Date.now() + 86_400_000;
  const dataset = new Float32Array(ENTRIES * DIMS);
  const built = performance.now();
  for (let from = 0; from < ENTRIES; from += PAGE) {
    const page: VectorEntry[] = [];
    for (let i = from; i < Math.min(ENTRIES, from + PAGE); i++) {
      const vector = randomUnit(DIMS);
      dataset.set(vector, i * DIMS);
      page.push({ scope: "k:bench", partition: "p", answerKey: `a${i}`, expiresAt, vector });
    }
    index.addMany(page);
  }
  const buildS = (performance.now() - built) / 1000;

  const lookups: number[] = [];
  const brute: number[] = [];
  let found = 0;
  for (let q = 0; q < QUERIES; q++) {
    const target = Math.floor(Math.random() * ENTRIES);
    // Half are stored questions asked again, half are questions never asked.
    const query = q % 2 ? nudged(dataset.subarray(target * DIMS, (target + 1) * DIMS)) : randomUnit(DIMS);
    let t = performance.now();
    const near = index.nearest("k:bench", "p", query);
    lookups.push(performance.now() - t);
    if (q % 2 && near?.answerKey === `a${target}`) found++;
    if (q % 20 === 0) {
      t = performance.now();
      usearch.exactSearch(dataset, query, DIMS, 1, usearch.MetricKind.Cos, 1);
      brute.push(performance.now() - t);
    }
  }
  lookups.sort((a, b) => a - b);
  brute.sort((a, b) => a - b);
  const p99 = percentile(lookups, 0.99);
  const recall = found / Math.floor(QUERIES / 2);
  report({
    bench: "semantic-cache",
    measure: `semantic lookup p99 over ${ENTRIES.toLocaleString("en")} entries of ${DIMS} dimensions (one graph)`,
    value: Number(p99.toFixed(2)),
    unit: "ms",
    target: "<= 5",
    note: `p50 ${percentile(lookups, 0.5).toFixed(2)} ms; brute force over the same vectors p50 ${percentile(brute, 0.5).toFixed(1)} ms, p99 ${percentile(brute, 0.99).toFixed(1)} ms (${(percentile(brute, 0.5) / percentile(lookups, 0.5)).toFixed(0)}× the index's p50); recall of a stored question asked again ${(recall * 100).toFixed(1)} %; index built in ${buildS.toFixed(0)} s on one thread`,
  });
}

main();
