// `npm start` (the server) and `npm run worker` (`start.mjs worker`, the research-queue worker): builds
// what is missing or stale (the compiled server when dist/ is absent or older than its sources; the portal,
// when it is served, when it has no build or a source is newer than it, as after a git pull), then runs the compiled entry in this very process.
// So the process npm (or a container) starts is the server: SIGTERM reaches server.ts's drain directly,
// and no transpiler or wrapper process stays around.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { OUT_DIR } from "./build-server.mjs";
import { ensureBuilt } from "./ensure-built.mjs";

const entry = process.argv[2] ?? "server";
if (entry !== "server" && entry !== "worker") {
  console.error(`usage: node scripts/start.mjs [server|worker]`);
  process.exit(2);
}
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
ensureBuilt({ portal: entry === "server" && process.env.SERVE_PORTAL !== "false" });

process.env.NODE_ENV ??= "production";
// Stack traces in the logs name the TypeScript sources (dist/ carries source maps).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.resolve(OUT_DIR, `${entry}.mjs`)).href);
