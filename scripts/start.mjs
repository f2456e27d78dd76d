// `npm start` (the server) and `npm run worker` (`start.mjs worker`, the research-queue worker): builds
// what is missing or stale, then runs the compiled entry in this very process. The compiled server (dist/,
// when absent or older than its sources) is built first, in seconds. The portal, when it is served and has
// no build or a source newer than it (a fresh clone, a git pull), is not waited for: its `next build` takes
// minutes, so server.ts starts it in the background once it listens and serves the API meanwhile (portal
// pages answer 503 "being built" until Next runs the new build; lib/portal/build-state.ts).
// The process npm (or a container) starts is the server: SIGTERM reaches server.ts's drain directly (and
// stops the background build; scripts/portal-build.mjs), and no transpiler or wrapper process stays around.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { OUT_DIR } from "./build-server.mjs";
import { ensureBuilt } from "./ensure-built.mjs";
import { PENDING_BUILD_KEY, startPortalBuild } from "./portal-build.mjs";

const entry = process.argv[2] ?? "server";
if (entry !== "server" && entry !== "worker") {
  console.error(`usage: node scripts/start.mjs [server|worker]`);
  process.exit(2);
}
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const portalStale = ensureBuilt({
  portal: entry === "server" && process.env.SERVE_PORTAL !== "false",
  background: true,
});
// For server.ts (takePendingBuild): a global, as the bundle in dist/ shares no module with this script.
if (portalStale) globalThis[PENDING_BUILD_KEY] = { reason: portalStale, start: () => startPortalBuild(portalStale) };

process.env.NODE_ENV ??= "production";
// Stack traces in the logs name the TypeScript sources (dist/ carries source maps).
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.resolve(OUT_DIR, `${entry}.mjs`)).href);
