// `npm run bench`: every benchmark in turn, each in its own process, then one table of every result
// against its target, also written to bench/results.json with the machine it ran on. A benchmark that
// fails is named in the table and makes the run exit non-zero; a missed target does not (it is a result).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { meets, RESULTS_LOG_ENV, type BenchResult } from "./results.ts";

const BENCHES = [
  "gateway.ts",
  "instances.ts",
  "llm-completion.ts",
  "peers.ts",
  "memory.ts",
  "utils.ts",
  "llm-stream.ts",
  "data-cache.ts",
  "response-cache.ts",
  "semantic-cache.ts",
  "token-limits.ts",
  "limit-levels.ts",
  "level-budgets.ts",
  "body-capture.ts",
  "guardrails-pii.ts",
  "reference.ts",
  "tracing.ts",
  "tracing-spans.ts",
];

const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-")), "results.jsonl");
const failed: string[] = [];
for (const bench of BENCHES) {
  console.log(`\n=== bench/${bench}`);
  const run = spawnSync(process.execPath, ["--import", "tsx", path.join("bench", bench)], {
    stdio: "inherit",
    env: { ...process.env, [RESULTS_LOG_ENV]: log },
  });
  if (run.status !== 0) failed.push(bench);
}

const results: BenchResult[] = fs.existsSync(log)
  ? fs
      .readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as BenchResult)
  : [];
const rows = results.map((r) => ({ ...r, met: meets(r.value, r.target) }));
const machine = {
  cores: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? "unknown",
  memoryGb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
};

console.log(`\n=== every result against its target (${machine.cores} cores, ${machine.cpu}, Node ${machine.node})`);
console.table(
  rows.map((r) => ({
    bench: r.bench,
    measure: r.measure,
    value: `${r.value} ${r.unit}`,
    target: r.target,
    met: r.met ? "yes" : "NO",
  })),
);
const missed = rows.filter((r) => !r.met).length;
console.log(
  `${rows.length - missed} of ${rows.length} targets met${failed.length ? `; failed: ${failed.join(", ")}` : ""}`,
);
fs.writeFileSync(
  path.join("bench", "results.json"),
  `${JSON.stringify({ date: new Date().toISOString(), machine, failed, results: rows }, null, 2)}\n`,
);
process.exit(failed.length ? 1 : 0);
