// Whether the portal's Next build (.next/) is older than what it is built from, for `npm start`: after a
// `git pull` the portal must not keep serving the pages of the last build. Next compiles the pages and
// everything of ours they import (lib/), so any source newer than the build's BUILD_ID means a rebuild.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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
