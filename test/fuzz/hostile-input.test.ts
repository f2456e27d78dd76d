import { expect, test } from "vitest";
import { fuzzGateway } from "./fuzz-gateway.ts";

// `npm test` (and so CI) runs a small, seeded budget; `npm run test:fuzz` a larger one. Every operation
// gets its baseline and the every-field cases (a 100 kB word, empty, whitespace in every free-text
// field) besides FUZZ_CASES sampled hostile ones. FUZZ_SEED replays a run exactly, FUZZ_ONLY (a regular
// expression on "POST /v1/documents/generate") only some operations; FUZZ_TIMEOUT_MS is how long one
// answer may take: a request not answered in time (asked twice) fails its case.
const casesPerOperation = Number(process.env.FUZZ_CASES ?? 3);
const seed = Number(process.env.FUZZ_SEED ?? 17);
const timeoutMs = Number(process.env.FUZZ_TIMEOUT_MS ?? 5_000);
const only = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;

test(
  `every operation in /openapi.json answers hostile input with JSON 2xx/4xx (${casesPerOperation} cases each, seed ${seed})`,
  async () => {
    const report = await fuzzGateway({ casesPerOperation, seed, timeoutMs, concurrency: 2, only });
    console.log(
      `fuzz: ${report.operations} operations, ${report.cases} requests, statuses ${JSON.stringify(report.statuses)}`,
    );
    expect(report.crashed).toBeUndefined();
    expect(
      report.findings.map((f) => `${f.operation} — ${f.label} → ${f.status}: ${f.problems.join("; ")}\n  ${f.request}`),
    ).toEqual([]);
    expect(report.operations).toBeGreaterThan(only ? 0 : 100);
  },
  // Start-up (a key through the CLI, the server process) plus the requests, with room for a slow machine.
  120_000 + (casesPerOperation + 4) * 150 * 1_000,
);
