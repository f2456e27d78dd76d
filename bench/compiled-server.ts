import { spawnSync } from "node:child_process";
import { startServerProcess, type ServerProcess } from "../test/support/server-process.ts";
// @ts-expect-error a plain .mjs script without type declarations
import { staleReason } from "../scripts/build-server.mjs";

/**
 * The server as production runs it (`npm start`): dist/server.mjs on plain node, compiled first when
 * missing or older than its sources, so benchmarks measure no transpiler and no loader hooks.
 */
export function startCompiledServer(env: Record<string, string>): Promise<ServerProcess> {
  if ((staleReason as () => string | undefined)()) {
    const r = spawnSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "inherit" });
    if (r.status !== 0) throw new Error("compiling the server failed");
  }
  return startServerProcess(env, "dist/server.mjs");
}
