// Where a request's CPU goes: starts the compiled server with an inspector profiler preloaded, loads it,
// and prints self time by package and by function, in µs a request. A diagnostic, not a target, and not
// part of `npm run bench`:
//   npx tsx bench/profile.ts /v1/key 8        GET a path with a key, 50 connections (PROFILE_KEYED=0: no key)
//   npx tsx bench/profile.ts stream 8         streamed /v1/llm/chat (PROFILE_PATH=/v1/chat/completions for
//                                             that surface), 20 at once, against a fake provider
//   npx tsx bench/profile.ts complete 8       the same, not streamed
//   npx tsx bench/profile.ts hit 8            a response-cache hit on /v1/chat/completions, 50 connections
// PROFILE_ENV='{"NAME":"value"}' adds to the server's environment; PROFILE_KEEP=1 keeps the .cpuprofile (for Chrome DevTools or speedscope).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startFakeOpenAICompatible } from "../test/fakes/llm.ts";
import { backendEnv } from "../test/support/backends.ts";
import { startServerProcess } from "../test/support/server-process.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { summariseProfile, type CpuProfile } from "./profile-summary.ts";
import { createBenchKey } from "./support.ts";

const target = process.argv[2] ?? "/v1/key";
const seconds = Number(process.argv[3] ?? 8);

/** Streams of a 20-word reply, 20 at a time, for the given time; resolves with how many finished. */
async function streamFor(url: string, key: string, ms: number): Promise<number> {
  const surface = process.env.PROFILE_PATH ?? "/v1/llm/chat";
  const body = JSON.stringify({
    ...(surface === "/v1/llm/chat" ? {} : { model: "grok-4-fast" }),
    messages: [{ role: "user", content: "Stream something." }],
    stream: target === "stream",
  });
  const end = Date.now() + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (Date.now() < end) {
        const res = await fetch(`${url}${surface}`, {
          method: "POST",
          headers: { "content-type": "application/json", "X-API-Key": key },
          body,
        });
        await res.text();
        done++;
      }
    }),
  );
  return done;
}

async function main() {
  const fake =
    target === "stream" || target === "complete" || target === "hit"
      ? await startFakeOpenAICompatible({
          key: "bench",
          reply: Array.from({ length: 20 }, (_, i) => `token${i} `).join(""),
          delayMs: 1,
        })
      : undefined;
  const backend = await backendEnv(process.env.DATABASE_URL ? "postgres" : "pglite");
  const out = path.join(os.tmpdir(), `gateway-${process.pid}.cpuprofile`);
  const env = {
    ...backend.env,
    LOG_LEVEL: "warn",
    SERVE_PORTAL: "false",
    ...(fake ? { XAI_API_KEY: "bench", UPSTREAM_XAI_URL: fake.url } : {}),
    ...(process.env.PROFILE_ENV ? (JSON.parse(process.env.PROFILE_ENV) as Record<string, string>) : {}),
  };
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
    let requests: number;
    if (target === "hit") {
      const body = JSON.stringify({ model: "xai/grok-4-fast", messages: [{ role: "user", content: "Say hello." }] });
      const hit = {
        url: `${server.url}/v1/chat/completions`,
        method: "POST" as const,
        body,
        headers: { ...headers, "content-type": "application/json", "cache-control": "max-age=86400" },
        connections: 50,
      };
      await autocannon({ ...hit, duration: 3 });
      server.proc.kill("SIGUSR2");
      const result = await autocannon({ ...hit, duration: seconds });
      console.log(`cache hits: ${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx`);
      requests = result.requests.total;
    } else if (fake) {
      await streamFor(server.url, key, 3000);
      server.proc.kill("SIGUSR2");
      requests = await streamFor(server.url, key, seconds * 1000);
      console.log(`streams: ${requests} in ${seconds} s`);
    } else {
      const url = `${server.url}${target}`;
      await autocannon({ url, connections: 50, duration: 3, headers });
      server.proc.kill("SIGUSR2");
      const result = await autocannon({ url, connections: 50, duration: seconds, headers });
      console.log(`${target}: ${Math.round(result.requests.average)} req/s, ${result.non2xx} non-2xx`);
      requests = result.requests.total;
    }
    for (let i = 0; i < 100 && !fs.existsSync(out); i++) await new Promise((r) => setTimeout(r, 100));
    const profile = JSON.parse(fs.readFileSync(out, "utf8")) as CpuProfile;
    const { byPackage, byFunction } = summariseProfile(profile, requests);
    console.table(byPackage.slice(0, 20));
    console.table(byFunction.slice(0, 45));
  } finally {
    if (process.env.PROFILE_KEEP) console.log(`profile kept in ${out}`);
    else fs.rmSync(out, { force: true });
    await server.stop();
    await fake?.close();
    await backend.cleanup();
  }
}

await main();
