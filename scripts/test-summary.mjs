// Prints vitest's totals as one plain line ("tests: N passed, N failed, N skipped") for CI logs.
import fs from "node:fs";

const file = process.argv[2] ?? ".vitest-results.json";
const r = JSON.parse(fs.readFileSync(file, "utf8"));
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
process.exit(r.success ? 0 : 1);
