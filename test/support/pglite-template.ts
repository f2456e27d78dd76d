import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readMigrations } from "../../lib/db/migrate.ts";

// Set by the global setups (test/global-setup.ts, e2e/global-setup.ts) for the test processes they start.
const ENV_NAME = "TEST_PGLITE_TEMPLATE";

/**
 * An embedded database initialised and migrated once per set of migrations, which each test's data
 * directory starts as a copy of. On a fresh directory a gateway first runs PGlite's initdb and every
 * migration: 6-8 s on a loaded 2-core machine, against 0.3 s to copy the 39 MB result, and the suites
 * start over a hundred gateways. Named by what it holds (the migrations and PGlite's version), so a
 * changed migration makes a new one rather than reusing a stale one.
 */
function templateDir(): string {
  const { version } = JSON.parse(
    fs.readFileSync(path.join("node_modules", "@electric-sql", "pglite", "package.json"), "utf8"),
  ) as { version: string };
  const hash = createHash("sha256").update(version);
  for (const m of readMigrations()) hash.update(`${m.name}\0${m.checksum}\0`);
  return path.join(os.tmpdir(), `gateway-pglite-template-${hash.digest("hex").slice(0, 16)}`);
}

/** Makes the template if it is missing (through `npm run migrate`'s script) and tells test processes where it is. */
export function preparePgliteTemplate(): void {
  const dir = templateDir();
  if (!fs.existsSync(dir)) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "gateway-pglite-template-work-"));
    const { DATABASE_URL: _pg, ...env } = process.env;
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
      env: { ...env, DATA_DIR: work },
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`making the PGlite template failed: ${r.stderr}`);
    // Renamed into place whole, so a concurrent run never copies a half-made template.
    try {
      fs.renameSync(path.join(work, "pglite"), dir);
    } catch (err) {
      if (!fs.existsSync(dir)) throw err;
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
  process.env[ENV_NAME] = dir;
}

/**
 * Starts `dataDir`'s embedded database as a copy of the template, when the run has one: a gateway
 * opening it finds every migration applied, as after a restart. Without one it stays empty.
 */
export function seedPglite(dataDir: string): void {
  const template = process.env[ENV_NAME];
  if (template && fs.existsSync(template)) fs.cpSync(template, path.join(dataDir, "pglite"), { recursive: true });
}
