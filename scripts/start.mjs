// `npm start`: builds the portal when no build exists yet (a fresh clone), then runs server.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const wantsPortal = process.env.SERVE_PORTAL !== "false";
if (wantsPortal && !fs.existsSync(".next/BUILD_ID")) {
  console.error("no portal build found: running next build once (about a minute)…");
  const build = spawnSync("npx", ["--no-install", "next", "build"], {
    stdio: "inherit",
    env: { ...env, NODE_ENV: "production" },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawnSync("npx", ["--no-install", "tsx", "server.ts"], {
  stdio: "inherit",
  env: { NODE_ENV: "production", ...env },
});
process.exit(server.status ?? 1);
