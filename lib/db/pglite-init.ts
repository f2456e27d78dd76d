import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * PGlite settings for an embedded default: 16 MB of shared buffers instead of PostgreSQL's 128 MB,
 * which PGlite keeps in its WASM memory for the life of the process (measured on a reopened database:
 * 294 → 188 MB RSS). The files stay in the OS page cache, so a small buffer pool costs little.
 */
export const PGLITE_MEMORY_PARAMS = ["-c", "shared_buffers=16MB"] as const;

/** A directory initdb has already run in. */
export function isInitialised(dir: string): boolean {
  return fs.existsSync(path.join(dir, "PG_VERSION"));
}

// CommonJS run by `node -e`, which resolves packages from its working directory: the project root, where
// every entry point runs (the server, Next, the tests). Resolved by the child rather than passed in,
// because a bundler rewrites this module's own require.resolve (Next's turns it into a module id).
// argv[1] is the directory.
const INIT_SCRIPT = `const { PGlite } = require("@electric-sql/pglite");
(async () => { const db = new PGlite(process.argv[1]); await db.waitReady; await db.close(); })()
  .catch((err) => { process.stderr.write(String(err && err.message || err)); process.exit(1); });`;

/**
 * Runs initdb for a fresh directory in a child process. In-process it would leave the server ~550 MB
 * larger for good: initdb grows PGlite's WASM memory to ~750 MB, and WASM memory never shrinks.
 * A directory already initialised is left alone.
 */
export async function initialiseInChild(dir: string): Promise<void> {
  if (isInitialised(dir)) return;
  const child = spawn(process.execPath, ["-e", INIT_SCRIPT, dir], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0)
    throw new Error(`initialising the embedded database in ${dir} failed: ${stderr.trim() || `exit ${code}`}`);
}
