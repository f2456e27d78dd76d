// `npm run build` (after next build), and `npm start` when dist/ is missing or older than its sources:
// compiles our TypeScript (the server, the queue worker, the worker-pool tasks, the keys CLI, the migration step) into
// dist/ as ESM with esbuild, so production runs JavaScript on plain node with no transpiler loaded.
// Packages stay imports from node_modules (native and WASM ones load their files from there); our own
// code, the generated Prisma client included, is bundled. `node scripts/build-server.mjs` builds.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const OUT_DIR = "dist";
/** Written last, so a build that stopped half-way counts as no build. Lists what the build read. */
const INPUTS_FILE = path.join(ROOT, OUT_DIR, "inputs.json");

export const ENTRY_POINTS = {
  server: "server.ts",
  worker: "worker.ts",
  "heavy-tasks": "lib/workers/heavy-tasks.ts",
  keys: "scripts/keys.ts",
  migrate: "scripts/migrate.ts",
};

/** Files that shape the output besides the bundled sources. */
const BUILD_FILES = ["scripts/build-server.mjs", "tsconfig.json", "package.json"];

/**
 * Why dist/ needs building, or null when it is current: every file the last build read (its sources,
 * recorded in dist/inputs.json, relative to the project root) still exists and is no newer than that record.
 */
export function staleReason() {
  let recorded;
  try {
    recorded = { at: fs.statSync(INPUTS_FILE).mtimeMs, files: JSON.parse(fs.readFileSync(INPUTS_FILE, "utf8")) };
  } catch {
    return `no complete build in ${OUT_DIR}/`;
  }
  for (const file of [...recorded.files, ...BUILD_FILES]) {
    let mtime;
    try {
      mtime = fs.statSync(path.join(ROOT, file)).mtimeMs;
    } catch {
      return `${file} is gone`;
    }
    if (mtime > recorded.at) return `${file} changed`;
  }
  return null;
}

export async function buildServer() {
  // esbuild is loaded only to build: start.mjs imports staleReason from here and then runs the server.
  const { build } = await import("esbuild");
  // Built beside dist/ and swapped in at the end: servers already running from dist/ (a cluster, a test
  // beside this build) still find the chunks they import lazily, bar the instant of the two renames.
  const building = `${OUT_DIR}.building-${process.pid}`;
  fs.rmSync(path.join(ROOT, building), { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRY_POINTS,
    outdir: building,
    outExtension: { ".js": ".mjs" },
    // Code shared by the entries, and each module a heavy task or an optional backend imports on first
    // use, goes into its own chunk, so a worker thread loads only what it runs.
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    metafile: true,
    logLevel: "warning",
    // Read by lib/gateway/runtime/worker-pool.ts: the compiled server's threads run the compiled tasks.
    define: { COMPILED_HEAVY_TASKS: JSON.stringify(`${OUT_DIR}/heavy-tasks.mjs`) },
  });
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith("node_modules/"));
  fs.writeFileSync(path.join(ROOT, building, "inputs.json"), `${JSON.stringify(inputs.sort(), null, 1)}\n`);
  const old = `${OUT_DIR}.old-${process.pid}`;
  if (fs.existsSync(path.join(ROOT, OUT_DIR))) fs.renameSync(path.join(ROOT, OUT_DIR), path.join(ROOT, old));
  fs.renameSync(path.join(ROOT, building), path.join(ROOT, OUT_DIR));
  fs.rmSync(path.join(ROOT, old), { recursive: true, force: true });
  return { inputs: inputs.length, outputs: Object.keys(result.metafile.outputs).length };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const { inputs, outputs } = await buildServer();
  console.error(
    `built ${OUT_DIR}/ from ${inputs} sources into ${outputs} files in ${Math.round(performance.now() - started)} ms`,
  );
}
