// The portal's Next build (.next/) for `npm start`: whether it is older than what it is built from (after a
// `git pull` the portal must not keep serving the pages of the last build; Next compiles the pages and
// everything of ours they import (lib/), so any source newer than the build's BUILD_ID means a rebuild),
// and `next build` run in the background while the server already serves the API (startPortalBuild).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUILD_ID = path.join(ROOT, ".next", "BUILD_ID");
const SOURCE_DIRS = ["app", "components", "lib", "public", "types"];
const SOURCE_FILES = [
  "next.config.mjs",
  "proxy.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

/** The newest file under dir (tests excluded), as [mtimeMs, path relative to the root]. */
function newest(dir) {
  let best = [0, ""];
  const walk = (d) => {
    let entries;
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && !/\.test\.tsx?$/.test(e.name)) {
        const m = fs.statSync(full).mtimeMs;
        if (m > best[0]) best = [m, path.relative(ROOT, full)];
      }
    }
  };
  walk(dir);
  return best;
}

/** Why the portal needs building, or null when its build is current. */
export function portalStaleReason() {
  let built;
  try {
    built = fs.statSync(BUILD_ID).mtimeMs;
  } catch {
    return "no portal build found";
  }
  for (const dir of SOURCE_DIRS) {
    const [mtime, file] = newest(path.join(ROOT, dir));
    if (mtime > built) return `${file} is newer than the portal build`;
  }
  for (const file of SOURCE_FILES) {
    try {
      if (fs.statSync(path.join(ROOT, file)).mtimeMs > built) return `${file} is newer than the portal build`;
    } catch {
      // Optional files (proxy.ts, postcss.config.mjs) may be absent.
    }
  }
  return null;
}

/** Where start.mjs leaves the build for server.ts to start: lib/portal/build-state.ts's PENDING_BUILD_KEY. */
export const PENDING_BUILD_KEY = Symbol.for("unified-gateway.portal-pending-build");

const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const GUARD = pathToFileURL(path.join(ROOT, "scripts", "portal-build-guard.mjs")).href;
/** Output lines kept for the console when the build fails (its error is at the end). */
const TAIL_LINES = 25;
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * Starts `next build` (NODE_ENV=production) in a child process and returns at once: the build of a fresh
 * clone takes minutes on a small machine, and the API must not wait for it (server.ts follows it with
 * lib/portal/build-state.ts's followBuild). Its output is not echoed, only summed up (`say`): the console is
 * the server's log, and a build's 100 lines of routes would bury it; the last lines are kept for a failure.
 *
 * The build is in a process group of its own (detached), so stop() ends Next's worker processes with it.
 * This process stops it on SIGTERM and SIGINT (beside server.ts's drain; alone, they also end the process as
 * the signal would have) and on exit, however it exits; scripts/portal-build-guard.mjs, loaded into the
 * build, ends it if this process dies by SIGKILL.
 * Returns lib/portal/build-state.ts's BackgroundBuild.
 */
export function startPortalBuild(
  reason,
  {
    say = (line) => process.stderr.write(`${line}\n`),
    // What runs instead of `next build` (the tests' stand-in).
    command = [NEXT_BIN, "build"],
  } = {},
) {
  const startedAt = Date.now();
  const child = spawn(process.execPath, ["--import", GUARD, ...command], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  say(
    `portal: building (${reason}; a few minutes)… the API is served meanwhile, portal pages answer 503 until it is done`,
  );

  const tail = [];
  const keep = (stream) => {
    let partial = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk) => {
      const lines = (partial + chunk).replace(ANSI, "").split(/\r?\n|\r/);
      partial = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) tail.push(line.trimEnd());
      if (tail.length > TAIL_LINES) tail.splice(0, tail.length - TAIL_LINES);
    });
    stream.on("end", () => {
      if (partial.trim()) tail.push(partial.trimEnd());
      if (tail.length > TAIL_LINES) tail.splice(0, tail.length - TAIL_LINES);
    });
  };
  keep(child.stdout);
  keep(child.stderr);

  let running = true;
  let stopped = false;
  const stop = () => {
    stopped = true;
    if (!running) return;
    try {
      // The group: `next build` and the workers it forked.
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  const onSignal = (signal) => {
    stop();
    // Alone (no drain of the process's own to run): the signal's default, ending this process.
    if (process.listenerCount(signal) === 1) process.exit(128 + os.constants.signals[signal]);
  };
  // At exit nothing can wait for a polite SIGTERM to be acted on: whatever is left of the group is killed.
  const onExit = () => {
    stopped = true;
    if (running)
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  process.on("exit", onExit);

  const exited = new Promise((resolve) => {
    const finish = (code, signal) => {
      if (!running) return;
      running = false;
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      process.off("exit", onExit);
      resolve({ code, signal, tail: [...tail], stopped, ms: Date.now() - startedAt });
    };
    // "close", not "exit": after the output has been read to its end, so the tail holds the last lines.
    child.once("close", finish);
    // Node itself could not be started (no such file, no memory): "close" may never come.
    child.once("error", (err) => {
      tail.push(`could not start next build: ${err.message}`);
      finish(null, null);
    });
  });
  return { pid: child.pid, reason, startedAt, exited, stop };
}
