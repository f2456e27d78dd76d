// Prints the totals of `npm test` (Vitest's JSON report and Playwright's) as one plain line for CI logs:
// "tests: N passed, N failed, N skipped", after one line per failed test (file, name and the first line of
// its error) so that the end of a CI log, often all that is kept of it, says what failed. Errors outside any
// test (a spec or test file that failed to load, a failed global setup) count as failed; so does a report
// that is missing.
import fs from "node:fs";
import path from "node:path";

const [vitestFile = ".vitest-results.json", playwrightFile = ".playwright-results.json"] = process.argv.slice(2);

function read(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    console.error(`no report in ${file}: ${error.message}`);
    return undefined;
  }
}

function vitestTotals(r) {
  if (!r) return { passed: 0, failed: 1, skipped: 0, ok: false };
  // A file that failed before its tests ran is failed with no failed test in it.
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).some((t) => t.status === "failed"),
  ).length;
  return {
    passed: r.numPassedTests ?? 0,
    failed: (r.numFailedTests ?? 0) + brokenFiles,
    skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    ok: r.success === true,
  };
}

function playwrightTotals(r) {
  if (!r) return { passed: 0, failed: 1, skipped: 0, ok: false };
  const s = r.stats ?? {};
  const errors = (r.errors ?? []).length;
  const failed = (s.unexpected ?? 0) + errors;
  return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed, skipped: s.skipped ?? 0, ok: failed === 0 };
}

const firstLine = (text) =>
  String(text ?? "")
    .split("\n")
    .find((l) => l.trim()) ?? "";

function vitestFailures(r) {
  const out = [];
  for (const f of r?.testResults ?? []) {
    const file = path.relative(process.cwd(), f.name ?? "");
    const failed = (f.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed) out.push(`${file} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (f.status === "failed" && failed.length === 0) out.push(`${file}: ${firstLine(f.message)}`);
  }
  return out;
}

function playwrightFailures(r) {
  const out = (r?.errors ?? []).map((e) => `playwright: ${firstLine(e.message)}`);
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message;
        out.push(`${spec.file} › ${[...titles, spec.title].join(" › ")}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of r?.suites ?? []) walk(suite, []);
  return out;
}

const vitestReport = read(vitestFile);
const playwrightReport = read(playwrightFile);
const plain = (line) => line.replace(/\u001b\[[0-9;]*m/g, "").slice(0, 400);
for (const line of [...vitestFailures(vitestReport), ...playwrightFailures(playwrightReport)]) {
  console.log(`FAILED ${plain(line)}`);
}

const runs = { vitest: vitestTotals(vitestReport), playwright: playwrightTotals(playwrightReport) };
const line = (t) => `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`;
console.log(
  Object.entries(runs)
    .map(([name, t]) => `${name} ${line(t)}`)
    .join("; "),
);
const sum = (key) => Object.values(runs).reduce((n, t) => n + t[key], 0);
console.log(`tests: ${line({ passed: sum("passed"), failed: sum("failed"), skipped: sum("skipped") })}`);
process.exit(Object.values(runs).every((t) => t.ok) ? 0 : 1);
