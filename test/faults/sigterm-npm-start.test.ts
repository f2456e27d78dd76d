import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { openDatabase } from "../../lib/db/client.ts";
import { startFakeOpenAICompatible } from "../fakes/llm.ts";
import { backendEnv } from "../support/backends.ts";
import { startNpmStart, type ServerProcess } from "../support/server-process.ts";
import { childrenOf, commandLine, makeKey, readStream, report, scenarioBackend } from "./fault-support.ts";

// SIGTERM during streams: the signal goes to npm's pid, as a container runtime,
// systemd or a process manager sends it. The compiled server's own SIGTERM test is in test/server.test.ts.
describe.runIf(process.platform === "linux")("SIGTERM to `npm start`", { timeout: 120_000 }, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("ends in one server process that drains keyed requests and a stream, cuts a stream past SHUTDOWN_GRACE_MS, exits 0 and writes every usage event", async () => {
    // xai: 30 words 50 ms apart, ~1.5 s, inside the 3 s grace period. mistral: 200 words, ~10 s, past it.
    const [short, long] = await Promise.all([
      startFakeOpenAICompatible({ key: "xai-test", reply: words(30), delayMs: 50 }),
      startFakeOpenAICompatible({ key: "mistral-test", reply: words(200), delayMs: 50 }),
    ]);
    cleanups.push(
      () => short.close(),
      () => long.close(),
    );
    const b = await backendEnv(scenarioBackend);
    cleanups.push(b.cleanup);
    const env = {
      ...b.env,
      SERVE_PORTAL: "false",
      // "Nothing lost" is checked row by row: every request must get its request-log row.
      REQUEST_LOG_ROWS_PER_KEY_SECOND: "0",
      METER_FLUSH_MS: "60000",
      SHUTDOWN_GRACE_MS: "3000",
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: short.url,
      MISTRAL_API_KEY: "mistral-test",
      UPSTREAM_MISTRAL_URL: long.url,
    };
    const npm: ServerProcess = await startNpmStart(env);
    // npm runs the script through `sh -c`; `exec` in the script makes the shell become the server, so
    // npm's one child is the server itself and the signal npm forwards reaches its drain.
    const children = childrenOf(npm.proc.pid!);
    expect(children).toHaveLength(1);
    const serverPid = Number(children[0]);
    expect(commandLine(serverPid).slice(1)).toEqual(["scripts/start.mjs"]);
    expect(childrenOf(serverPid)).toEqual([]);
    cleanups.push(() => {
      // Nothing may outlive the test, even when an assertion failed before the drain.
      for (const pid of [serverPid, npm.proc.pid!])
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
    });
    // Room for all 60 at once: what is checked is that every answered request is metered, not the limits.
    const created = await makeKey(env, { name: "sigterm", minute: 1000, concurrency: 100 });
    const headers = { "X-API-Key": created.key, "content-type": "application/json" };

    const N = 60;
    const statuses = await Promise.all(
      Array.from({ length: N }, () => fetch(`${npm.url}/v1/key`, { headers }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(N);
    const chat = (provider: string) =>
      fetch(`${npm.url}/v1/llm/chat`, {
        method: "POST",
        headers,
        body: JSON.stringify({ messages: [{ role: "user", content: "Say many words." }], provider, stream: true }),
      });
    const [shortRes, longRes] = await Promise.all([chat("xai"), chat("mistral")]);
    expect([shortRes.status, longRes.status]).toEqual([200, 200]);
    const shortStream = readStream(shortRes);
    const longStream = readStream(longRes);
    const longEnd = longStream.events.then(
      (events) => `ended after ${events.length} events`,
      (err: unknown) => `cut: ${(err as Error).message}`,
    );
    await Promise.all([shortStream.firstEvent, longStream.firstEvent]);

    const signalled = Date.now();
    const exited = npm.stop("SIGTERM");
    const events = await shortStream.events;
    const shortMs = Date.now() - signalled;
    const code = await exited;
    const exitedMs = Date.now() - signalled;
    const longSaw = await longEnd;

    expect(code).toBe(0);
    expect(fs.existsSync(`/proc/${serverPid}`), "the server outlived npm").toBe(false);
    expect(events.at(-1)).toMatchObject({ done: true, provider: "xai" });
    expect(events.filter((e) => "content" in e)).toHaveLength(30);
    expect(npm.output()).toMatch(/"msg":"grace period over; closing the connections still open"/);
    expect(npm.output()).toMatch(/"msg":"stopped"/);

    const db = await openDatabase(loadConfig(env));
    let rows;
    try {
      rows = await db.prisma.usageEvent.findMany({ where: { keyId: created.id } });
    } finally {
      await db.close();
    }
    const streamed = (provider: string) => rows.find((e) => e.route === "/v1/llm/chat" && e.provider === provider);
    report("SIGTERM to npm start: keyed requests, a stream inside the grace period, one past it", {
      clients: `${N} × 200; short stream complete (${events.length} events, ended ${shortMs} ms after SIGTERM); long stream ${longSaw}`,
      exit: `npm exited ${code} after ${exitedMs} ms (grace 3000 ms), no process left`,
      written: rows.length,
      lost: N + 2 - rows.length,
    });
    expect(rows).toHaveLength(N + 2);
    expect(streamed("xai")).toMatchObject({ status: 200, completionTokens: 30 });
    // Metered as far as it went: some words, not the 200 the provider would have sent.
    expect(streamed("mistral")!.completionTokens).toBeGreaterThan(0);
    expect(streamed("mistral")!.completionTokens).toBeLessThan(200);
  });
});

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `).join("");
