// What `npm start` and `npm run cluster` build before they run anything: the compiled server (dist/) when
// absent or older than its sources, and the portal when it is served and has no build or a source newer
// than it (after a git pull). Each build runs in a child process, so no esbuild or Next service stays in
// the process that then becomes the server.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { OUT_DIR, staleReason } from "./build-server.mjs";
import { portalStaleReason } from "./portal-build.mjs";

function run(what, args, env = process.env) {
  console.error(`${what}…`);
  const result = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * Builds what is missing or stale; exits the process with the build's code when a build fails. The server
 * (seconds) is always built before this returns. The portal (minutes) too, unless `background`: then it is
 * left to the caller, who gets the reason it needs building (undefined when it does not), to start its
 * `next build` in the background (scripts/portal-build.mjs's startPortalBuild) when it likes.
 */
export function ensureBuilt({ portal, background = false }) {
  const portalStale = portal ? portalStaleReason() : null;
  if (portalStale && !background) {
    const nextBin = path.join("node_modules", "next", "dist", "bin", "next");
    run(`${portalStale}: running next build (a few minutes)`, [nextBin, "build"], {
      ...process.env,
      NODE_ENV: "production",
    });
  }
  const stale = staleReason();
  if (stale) run(`compiling the server into ${OUT_DIR}/ (${stale})`, ["scripts/build-server.mjs"]);
  return (background && portalStale) || undefined;
}
