import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { openDatabase } from "../../lib/db/client.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "../fakes/llm.ts";
import { backendEnv } from "../support/backends.ts";
import { runKeysCli, startNpmStart, type ServerProcess } from "../support/server-process.ts";
import { childrenOf, commandLine, readStream, report } from "./fault-support.ts";

// Issue #17 items 1 and 5 ("SIGTERM during streams"): the signal goes to npm's pid, as a container runtime,
// systemd or a process manager sends it. The compiled server's own SIGTERM test is in test/server.test.ts.
describe.runIf(process.platform === "linux")("SIGTERM to `npm start`", { timeout: 120_000 }, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** `npm start` (API only: no portal build) with a slow fake provider; returns npm and the server's pid. */
  async function start(extra: Record<string, string>, fake: FakeLlm) {
    const b = await backendEnv("pglite");
    cleanups.push(b.cleanup);
    const env = {
      ...b.env,
      SERVE_PORTAL: "false",
      METER_FLUSH_MS: "60000",
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: fake.url,
      ...extra,
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
    const made = await runKeysCli(["create", "--name", "sigterm", "--minute", "1000"], env);
    expect(made.code, made.stderr).toBe(0);
    const created = made.lines[0] as { id: string; key: string };
    return { env, npm, serverPid, created };
  }

  async function usageRows(env: Record<string, string>, keyId: string) {
    const db = await openDatabase(loadConfig(env));
    try {
      const events = await db.prisma.usageEvent.findMany({ where: { keyId } });
      return {
        total: events.length,
        streams: events.filter((e) => e.route === "/v1/llm/chat"),
      };
    } finally {
      await db.close();
    }
  }

  it("ends in one server process that drains keyed requests and an in-flight stream, exits 0 and writes every usage event", async () => {
    // 40 words, 50 ms apart: a stream of about 2 s, well inside the grace period.
    const fake = await startFakeOpenAICompatible({
      key: "xai-test",
      reply: Array.from({ length: 40 }, (_, i) => `w${i} `).join(""),
      delayMs: 50,
    });
    cleanups.push(() => fake.close());
    const { env, npm, serverPid, created } = await start({}, fake);
    const headers = { "X-API-Key": created.key, "content-type": "application/json" };

    const N = 60;
    const statuses = await Promise.all(
      Array.from({ length: N }, () => fetch(`${npm.url}/v1/key`, { headers }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(N);

    const stream = await fetch(`${npm.url}/v1/llm/chat`, {
      method: "POST",
      headers,
      body: JSON.stringify({ messages: [{ role: "user", content: "Say forty words." }], stream: true }),
    });
    expect(stream.status).toBe(200);
    const reading = readStream(stream);
    await reading.firstEvent;
    const signalled = Date.now();
    const exited = npm.stop("SIGTERM");
    const events = await reading.events;
    const streamMs = Date.now() - signalled;
    const code = await exited;
    const exitedMs = Date.now() - signalled;

    expect(code).toBe(0);
    expect(fs.existsSync(`/proc/${serverPid}`), "the server outlived npm").toBe(false);
    expect(events.at(-1)).toMatchObject({ done: true, provider: "xai" });
    expect(events.filter((e) => "content" in e)).toHaveLength(40);
    expect(npm.output()).toMatch(/"msg":"stopped"/);

    const rows = await usageRows(env, created.id);
    report("SIGTERM to npm start during a stream", {
      clients: `${N} × 200, stream complete (${events.length} events, ended ${streamMs} ms after SIGTERM)`,
      exit: `npm exited ${code} after ${exitedMs} ms`,
      lost: N + 1 - rows.total,
    });
    expect(rows.total).toBe(N + 1);
    expect(rows.streams).toHaveLength(1);
    expect(rows.streams[0]).toMatchObject({ status: 200, completionTokens: 40 });
  });

  it("past SHUTDOWN_GRACE_MS cuts a stream still open, meters it as far as it went and still exits 0", async () => {
    // 200 words, 50 ms apart: 10 s, far past a 1.5 s grace period.
    const fake = await startFakeOpenAICompatible({
      key: "xai-test",
      reply: Array.from({ length: 200 }, (_, i) => `w${i} `).join(""),
      delayMs: 50,
    });
    cleanups.push(() => fake.close());
    const { env, npm, created } = await start({ SHUTDOWN_GRACE_MS: "1500" }, fake);
    const headers = { "X-API-Key": created.key, "content-type": "application/json" };

    const stream = await fetch(`${npm.url}/v1/llm/chat`, {
      method: "POST",
      headers,
      body: JSON.stringify({ messages: [{ role: "user", content: "Say two hundred words." }], stream: true }),
    });
    expect(stream.status).toBe(200);
    const reading = readStream(stream);
    const ending = reading.events.then(
      (events) => `ended after ${events.length} events`,
      (err: unknown) => `cut: ${(err as Error).message}`,
    );
    await reading.firstEvent;
    const signalled = Date.now();
    const code = await npm.stop("SIGTERM");
    const exitedMs = Date.now() - signalled;
    const ended = await ending;

    expect(code).toBe(0);
    expect(exitedMs).toBeLessThan(8000);
    const rows = await usageRows(env, created.id);
    report("SIGTERM to npm start, stream longer than the grace period", {
      clients: `stream ${ended}`,
      exit: `npm exited ${code} after ${exitedMs} ms (grace 1500 ms)`,
      lost: 1 - rows.total,
    });
    expect(rows.streams).toHaveLength(1);
    // Metered as far as it went: some words, not the 200 the provider would have sent.
    expect(rows.streams[0]!.completionTokens).toBeGreaterThan(0);
    expect(rows.streams[0]!.completionTokens).toBeLessThan(200);
  });
});
