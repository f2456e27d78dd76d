// `npm test`: Vitest (lib/ and test/) and Playwright (the browser tests in e2e/), side by side. Both always
// run, and the exit code is non-zero when either failed. Arguments: a path under e2e/ or ending in .spec.ts
// goes to Playwright, any other file or filter to Vitest, and only the runners so named run; options (-x,
// --name=value) go to Vitest. `npx playwright test ...` takes Playwright's own options.
//
// Why side by side: each runner alone leaves much of the two cores idle (Playwright runs one spec at a time
// and most of a spec is waiting on a browser or a server starting), and one after the other they took over
// 28 minutes. When both run, Vitest prints as it goes and Playwright's output is kept and printed whole
// when Vitest is done, so the two never interleave line by line.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = (pkg, file) => fileURLToPath(new URL(file, import.meta.resolve(`${pkg}/package.json`)));
const isSpec = (arg) => /(^|[\\/])e2e[\\/]|\.spec\.ts$/.test(arg);

const args = process.argv.slice(2);
const options = args.filter((a) => a.startsWith("-"));
const vitestFiles = args.filter((a) => !a.startsWith("-") && !isSpec(a));
const specs = args.filter((a) => !a.startsWith("-") && isSpec(a));
const named = vitestFiles.length + specs.length > 0;

const runs = [];
if (!named || vitestFiles.length > 0)
  runs.push({ name: "vitest", script: bin("vitest", "vitest.mjs"), args: ["run", ...options, ...vitestFiles] });
if (!named || specs.length > 0)
  runs.push({ name: "playwright", script: bin("@playwright/test", "cli.js"), args: ["test", ...specs] });

const children = new Set();
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(130);
  });

/** Runs one runner to its end: its output live, or kept (and returned) when another runner prints live. */
function run({ name, script, args: runArgs }, { keepOutput }) {
  const started = Date.now();
  console.log(
    `\n> ${name} ${runArgs.join(" ")}${keepOutput ? " (its output follows when the other runner is done)" : ""}\n`,
  );
  const child = spawn(process.execPath, [script, ...runArgs], {
    stdio: keepOutput ? ["ignore", "pipe", "pipe"] : "inherit",
    env: process.env,
  });
  children.add(child);
  const kept = [];
  if (keepOutput) {
    child.stdout.on("data", (chunk) => kept.push(chunk));
    child.stderr.on("data", (chunk) => kept.push(chunk));
  }
  return new Promise((resolve) => {
    const finish = (status, reason) => {
      children.delete(child);
      const seconds = Math.round((Date.now() - started) / 1000);
      resolve({ name, ok: status === 0, reason, seconds, output: Buffer.concat(kept) });
    };
    child.on("error", (error) => finish(null, error.message));
    child.on("close", (code, signal) => finish(code, signal ?? `exit code ${code}`));
  });
}

const [live, ...others] = runs;
const results = await Promise.all([
  run(live, { keepOutput: false }),
  ...others.map((r) => run(r, { keepOutput: true })),
]);
let failed = false;
for (const result of results) {
  if (result.output.length > 0) {
    console.log(`\n> ${result.name} output\n`);
    process.stdout.write(result.output);
  }
  console.log(`\n${result.name} ${result.ok ? "passed" : `failed (${result.reason})`} in ${result.seconds} s`);
  failed ||= !result.ok;
}
process.exit(failed ? 1 : 0);
