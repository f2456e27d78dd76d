import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { listen } from "./listen.ts";

/**
 * Builds the portal once when no build exists (a fresh clone); tests of the portal need one. Several
 * test runs on one checkout wait for each other on a lock instead of failing on Next's own build lock.
 */
export function ensureNextBuild(): void {
  if (fs.existsSync(".next/BUILD_ID")) return;
  const result = spawnSync(
    "flock",
    [".next-build.lock", "sh", "-c", "[ -f .next/BUILD_ID ] || npx --no-install next build"],
    {
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  if (result.status !== 0) throw new Error("next build failed");
}

export async function freePort(): Promise<number> {
  const { port, close } = await listen(net.createServer());
  await close();
  return port;
}
