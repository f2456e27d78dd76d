// Streamed chat through the gateway against the same fake provider straight, and through a minimal Node
// relay (the floor), in one run:
// time to the first token (TTFB here) and total time over 200 requests at 20 concurrent, then 1,000 streams held open
// at once on one instance with its memory. Targets: added TTFB p50 <= 2 ms, p99 <= 10 ms; 1,000 open streams add <= 100 MB.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { backendEnv } from "../test/support/backends.ts";
import { runKeysCli, startServerProcess } from "../test/support/server-process.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { report } from "./results.ts";
import { percentile, rssMb, startScriptServer } from "./support.ts";
import { startFakeOpenAICompatible } from "../test/fakes/llm.ts";

const REQUESTS = 200;
const CONCURRENCY = 20;
const OPEN_STREAMS = Number(process.env.BENCH_OPEN_STREAMS ?? 1000);

type Timing = { ttfb: number; total: number };

// A delta with text in it, in either shape: OpenAI's chunk (`"delta":{"content":"token0 "}`) or the
// gateway's event (`{"content":"token0 "}`). An empty content (OpenAI's first, role-only chunk) is not one.
const FIRST_TOKEN = /"content":"[^"]/;

/**
 * One stream, timed to its first token and to its end. The first token, not the first byte: straight
 * from the provider the first bytes are a role-only chunk sent before any text, which the gateway's
 * own event shape has no counterpart for, so "first byte" would compare different events.
 */
async function timedStream(url: string, init: RequestInit): Promise<Timing> {
  const started = performance.now();
  const res = await fetch(url, init);
  if (res.status !== 200 || !res.body) throw new Error(`${url} answered ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  let ttfb = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (value && !ttfb) {
      seen += decoder.decode(value, { stream: true });
      if (FIRST_TOKEN.test(seen)) ttfb = performance.now() - started;
    }
    if (done) break;
  }
  if (!ttfb) throw new Error(`${url} streamed no text`);
  return { ttfb, total: performance.now() - started };
}

async function run(label: string, make: () => Promise<Timing>): Promise<Timing[]> {
  const out: Timing[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) out.push(await make());
    }),
  );
  console.log(`${label}: ${out.length} streams`);
  return out;
}

/** User + system CPU time a process has used, from /proc (clock ticks are 10 ms on Linux). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main() {
  const fake = await startFakeOpenAICompatible({
    key: "bench",
    reply: Array.from({ length: 20 }, (_, i) => `token${i} `).join(""),
    delayMs: 1,
  });
  const slow = await startFakeOpenAICompatible({
    key: "bench",
    reply: Array.from({ length: 40 }, (_, i) => `t${i} `).join(""),
    delayMs: 250,
  });
  const backend = await backendEnv("pglite");
  const env = {
    ...backend.env,
    LOG_LEVEL: "warn",
    SERVE_PORTAL: "false",
    XAI_API_KEY: "bench",
    UPSTREAM_XAI_URL: fake.url,
  };
  const server = await startCompiledServer(env);
  // The floor: the least a Node relay does for the same stream (bench/minimal-proxy-server.ts).
  const proxy = await startScriptServer("bench/minimal-proxy-server.ts", { PROXY_UPSTREAM: fake.url });
  try {
    const { key } = (
      await runKeysCli(
        ["create", "--name", "bench-llm", "--minute", "10000000", "--day", "100000000", "--concurrency", "5000"],
        env,
      )
    ).lines[0] as { key: string };
    const messages = [{ role: "user", content: "Stream something." }];
    const direct = () =>
      timedStream(`${fake.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer bench" },
        body: JSON.stringify({ model: "grok-4-fast", messages, stream: true, stream_options: { include_usage: true } }),
      });
    const gateway = () =>
      timedStream(`${server.url}/v1/llm/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": key },
        body: JSON.stringify({ messages, stream: true }),
      });
    const minimal = () =>
      timedStream(`${proxy.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "grok-4-fast", messages, stream: true, stream_options: { include_usage: true } }),
      });
    await run("warm-up direct", direct);
    await run("warm-up gateway", gateway);
    await run("warm-up minimal relay", minimal);
    const d = await run("direct to the fake provider", direct);
    // CPU per stream is the cost itself; latencies on a shared machine also carry other processes' load.
    const timedWithCpu = async (label: string, pid: number, make: () => Promise<Timing>) => {
      const before = cpuMs(pid);
      const timings = await run(label, make);
      return { timings, cpuPerStream: (cpuMs(pid) - before) / REQUESTS };
    };
    const viaGateway = await timedWithCpu("through the gateway", server.proc.pid!, gateway);
    const floor = await timedWithCpu("through a minimal Node relay", proxy.pid!, minimal);
    const g = viaGateway.timings;
    const m = floor.timings;
    /** The p-th percentile of one timing over a run, in ms. */
    const at = (t: Timing[], field: keyof Timing, p: number) =>
      percentile(
        t.map((x) => x[field]),
        p,
      );
    const row = (name: string, t: Timing[]) => ({
      path: name,
      "TTFB p50 ms": +at(t, "ttfb", 50).toFixed(2),
      "TTFB p99 ms": +at(t, "ttfb", 99).toFixed(2),
      "total p50 ms": +at(t, "total", 50).toFixed(2),
      "total p99 ms": +at(t, "total", 99).toFixed(2),
    });
    console.table([row("direct", d), row("gateway", g), row("minimal relay", m)]);
    const added50 = at(g, "ttfb", 50) - at(d, "ttfb", 50);
    const added99 = at(g, "ttfb", 99) - at(d, "ttfb", 99);
    const note = `ratio of p50 totals ${(at(g, "total", 50) / at(d, "total", 50)).toFixed(2)}`;
    report({
      bench: "llm-stream",
      measure: "streamed chat added TTFB p50",
      value: Number(added50.toFixed(2)),
      unit: "ms",
      target: "<= 2",
      note,
    });
    report({
      bench: "llm-stream",
      measure: "streamed chat added TTFB p99",
      value: Number(added99.toFixed(2)),
      unit: "ms",
      target: "<= 10",
    });
    report({
      bench: "llm-stream",
      measure: "gateway CPU a streamed chat",
      value: Number(viaGateway.cpuPerStream.toFixed(2)),
      unit: "ms",
      target: "<= 0.5",
      note: `the floor, a minimal Node relay passing the provider's bytes on unparsed: ${floor.cpuPerStream.toFixed(2)} ms a stream, adding ${(at(m, "ttfb", 50) - at(d, "ttfb", 50)).toFixed(2)} ms to the first token at p50`,
    });

    // Hold many streams open at once against a slow provider.
    process.env.UPSTREAM_XAI_URL = slow.url;
    await server.stop();
    const heapOut = path.join(os.tmpdir(), `llm-stream-heap-${process.pid}.json`);
    // Compiled already (above); started with the heap probe, which does nothing until asked.
    const held = await startServerProcess(
      { ...env, UPSTREAM_XAI_URL: slow.url, HEAP_OUT: heapOut },
      "dist/server.mjs",
      [path.resolve("bench/heap-preload.mjs")],
    );
    /** The server's live heap after a full collection, in MB (see bench/heap-preload.mjs). */
    const liveHeapMb = async (): Promise<number> => {
      fs.rmSync(heapOut, { force: true });
      held.proc.kill("SIGUSR2");
      for (let i = 0; i < 200 && !fs.existsSync(heapOut); i++) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, 25));
      return (JSON.parse(fs.readFileSync(heapOut, "utf8")) as { heapUsed: number }).heapUsed / (1024 * 1024);
    };
    try {
      const before = rssMb(held.proc.pid!);
      let firstBytes = 0;
      const streams = Array.from({ length: OPEN_STREAMS }, async () => {
        const res = await fetch(`${held.url}/v1/llm/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", "X-API-Key": key },
          body: JSON.stringify({ messages, stream: true }),
        });
        const reader = res.body!.getReader();
        await reader.read();
        firstBytes += 1;
        while (!(await reader.read()).done) {
          /* drain */
        }
        return res.status;
      });
      const deadline = Date.now() + 60_000;
      while (firstBytes < OPEN_STREAMS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const during = rssMb(held.proc.pid!);
      // Read after the RSS, so collecting does not move it: the live heap with every stream open, then
      // with none, is what an open stream keeps.
      const heapOpen = await liveHeapMb();
      const statuses = await Promise.all(streams);
      const heapPerStreamKb = ((heapOpen - (await liveHeapMb())) * 1024) / OPEN_STREAMS;
      report({
        bench: "llm-stream",
        measure: `RSS added by ${OPEN_STREAMS} open streams`,
        value: during - before,
        unit: "MB",
        target: "<= 100",
        note: `${firstBytes} open at once, ${statuses.filter((s) => s === 200).length} completed; ${before} → ${during} MB, ${(((during - before) * 1024) / OPEN_STREAMS).toFixed(0)} kB a stream; live heap ${heapPerStreamKb.toFixed(1)} kB a stream after a full collection`,
      });
    } finally {
      await held.stop();
      fs.rmSync(heapOut, { force: true });
    }
  } finally {
    await server.stop();
    proxy.stop();
    await fake.close();
    await slow.close();
    await backend.cleanup();
  }
}

await main();
