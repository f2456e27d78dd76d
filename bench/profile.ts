// Where a request's CPU goes: starts the compiled server with an inspector profiler preloaded, loads one
// path with autocannon, and prints self time by package and by function, in µs a request. A diagnostic,
// not a target, and not part of `npm run bench`: `npx tsx bench/profile.ts [path] [seconds]`, e.g.
// `npx tsx bench/profile.ts /v1/key 8`; PROFILE_KEYED=0 for a keyless call.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { backendEnv } from "../test/support/backends.ts";
import { startServerProcess } from "../test/support/server-process.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { summariseProfile, type CpuProfile } from "./profile-summary.ts";
import { createBenchKey } from "./support.ts";

const route = process.argv[2] ?? "/v1/key";
const seconds = Number(process.argv[3] ?? 8);

async function main() {
  const backend = await backendEnv(process.env.DATABASE_URL ? "postgres" : "pglite");
  const out = path.join(os.tmpdir(), `gateway-${process.pid}.cpuprofile`);
  const env = { ...backend.env, LOG_LEVEL: "warn", SERVE_PORTAL: "false" };
  // Compiles dist/ when stale; the profiled run below starts the same build with the preload.
  await (await startCompiledServer(env)).stop();
  const key = await createBenchKey(env);
  const headers: Record<string, string> = process.env.PROFILE_KEYED === "0" ? {} : { "X-API-Key": key };
  const server = await startServerProcess(
    { ...env, PROFILE_OUT: out, PROFILE_MS: String(seconds * 1000) },
    "dist/server.mjs",
    [path.resolve("bench/profile-preload.mjs")],
  );
  try {
    const url = `${server.url}${route}`;
    await autocannon({ url, connections: 50, duration: 3, headers });
    server.proc.kill("SIGUSR2");
    const result = await autocannon({ url, connections: 50, duration: seconds, headers });
    console.log(`${route}: ${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx`);
    for (let i = 0; i < 100 && !fs.existsSync(out); i++) await new Promise((r) => setTimeout(r, 100));
    const profile = JSON.parse(fs.readFileSync(out, "utf8")) as CpuProfile;
    const { byPackage, byFunction } = summariseProfile(profile, result.requests.total);
    console.table(byPackage.slice(0, 20));
    console.table(byFunction.slice(0, 45));
  } finally {
    fs.rmSync(out, { force: true });
    await server.stop();
    await backend.cleanup();
  }
}

await main();
