// `npm test`: Vitest (lib/ and test/), then Playwright (the browser tests in e2e/). Both always run, and
// the exit code is non-zero when either failed. Arguments: a path under e2e/ or ending in .spec.ts goes
// to Playwright, any other file or filter to Vitest, and only the runners so named run; options (-x,
// --name=value) go to Vitest. `npx playwright test ...` takes Playwright's own options.
import { spawnSync } from "node:child_process";
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
  runs.push(["vitest", bin("vitest", "vitest.mjs"), ["run", ...options, ...vitestFiles]]);
if (!named || specs.length > 0) runs.push(["playwright", bin("@playwright/test", "cli.js"), ["test", ...specs]]);

let failed = false;
for (const [name, script, runArgs] of runs) {
  console.log(`\n> ${name} ${runArgs.join(" ")}\n`);
  const result = spawnSync(process.execPath, [script, ...runArgs], { stdio: "inherit" });
  if (result.signal === "SIGINT" || result.signal === "SIGTERM") process.exit(130);
  if (result.status !== 0) {
    console.error(`\n${name} failed (${result.error?.message ?? result.signal ?? `exit code ${result.status}`})`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
