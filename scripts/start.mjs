// `npm start` (the server) and `npm run worker` (`start.mjs worker`, the research-queue worker): builds
// what is missing or stale (the compiled server when dist/ is absent or older than its sources; the portal,
// when it is served, when it has no build or a source is newer than it, as after a git pull), then runs the compiled entry in this very process.
// So the process npm (or a container) starts is the server: SIGTERM reaches server.ts's drain directly,
// and no transpiler or wrapper process stays around.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { OUT_DIR, staleReason } from "./build-server.mjs";
import { portalStaleReason } from "./portal-build.mjs";

const entry = process.argv[2] ?? "server";
if (entry !== "server" && entry !== "worker") {
  console.error(`usage: node scripts/start.mjs [server|worker]`);
  process.exit(2);
}
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

/** Runs one build step in a child process that exits when done (esbuild's and Next's services with it). */
function run(what, args, env = process.env) {
  console.error(`${what}…`);
  const result = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const portalStale = entry === "server" && process.env.SERVE_PORTAL !== "false" ? portalStaleReason() : null;
if (portalStale) {
  const nextBin = path.join("node_modules", "next", "dist", "bin", "next");
  run(`${portalStale}: running next build (a few minutes)`, [nextBin, "build"], {
    ...process.env,
    NODE_ENV: "production",
  });
}
const stale = staleReason();
if (stale) run(`compiling the server into ${OUT_DIR}/ (${stale})`, ["scripts/build-server.mjs"]);

process.env.NODE_ENV ??= "production";
// Stack traces in the logs name the TypeScript sources (dist/ carries source maps).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.resolve(OUT_DIR, `${entry}.mjs`)).href);
