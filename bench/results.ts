import fs from "node:fs";

/** One measured figure of a benchmark against its target. */
export type BenchResult = {
  bench: string;
  measure: string;
  /** The figure as measured; several rounds read as their median, with the spread in `note`. */
  value: number;
  unit: string;
  /** The target, as written in the issue: "<= 10", ">= 0.5". */
  target: string;
  note?: string;
};

/** Where `npm run bench` (bench/run-all.ts) collects the results of the benchmarks it runs. */
export const RESULTS_LOG_ENV = "BENCH_RESULTS_LOG";

/** Whether a value meets a target written as "<= n" or ">= n". */
export function meets(value: number, target: string): boolean {
  const m = /^(<=|>=)\s*(-?[\d.]+)$/.exec(target.trim());
  if (!m) throw new Error(`unreadable target: ${target}`);
  const bound = Number(m[2]);
  return m[1] === "<=" ? value <= bound : value >= bound;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The spread of rounds, "0.41–0.47", for a result's note. */
export const spread = (xs: number[], digits = 2): string =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

/**
 * Prints a result beside its target and, when the run collects results (npm run bench), appends it to
 * the run's log for the closing table. A benchmark run alone just prints.
 */
export function report(result: BenchResult): void {
  const met = meets(result.value, result.target);
  console.log(
    `${met ? "MET " : "MISS"} ${result.measure}: ${result.value} ${result.unit} (target ${result.target})${result.note ? ` — ${result.note}` : ""}`,
  );
  const log = process.env[RESULTS_LOG_ENV];
  if (log) fs.appendFileSync(log, `${JSON.stringify(result)}\n`);
}

/** CPU µs per call of `n` synchronous calls in a row (in-process benches of a hot-path step). */
export function cpuPerCall(n: number, call: () => void): number {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) call();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}
