// `tsx bench/peers.ts`: the gateway and Portkey's open-source gateway (@portkey-ai/gateway, installed
// on first run into .bench-peers/) in one run, against the same fake OpenAI-compatible provider in its
// own process, side by side: added latency p50/p99 (non-streamed, 1 connection), added TTFB p50/p99
// (streamed, 20 concurrent), throughput against the provider straight (non-streamed, 20 connections),
// CPU per request and RSS. Ours must lead on every column. Ours runs on embedded PGlite, the default;
// PEERS_BACKEND=postgres runs it on DATABASE_URL's PostgreSQL instead, as production does (no WebAssembly
// database in its memory).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import autocannon, { type Result } from "autocannon";
import { backendEnv } from "../test/support/backends.ts";
import { freePort } from "../test/support/next-build.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { cpuPerRequest } from "./process-cpu.ts";
import { createBenchKey, percentile, rssMb, startScriptServer } from "./support.ts";
import { report } from "./results.ts";

const PORTKEY = "@portkey-ai/gateway@1.15.2";
const PEERS_DIR = ".bench-peers";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const STREAMS = 200;

type Target = { name: string; url: string; pid?: number; headers: Record<string, string> };

const chatBody = (stream: boolean) =>
  JSON.stringify({
    model: "xai/grok-4-fast",
    messages: [{ role: "user", content: "Say hello." }],
    ...(stream ? { stream: true } : {}),
  });

async function spawnListening(command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp) {
  const proc = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start:\n${out}`)), 60_000);
    const check = (d: Buffer) => {
      out += d.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    proc.stdout!.on("data", check);
    proc.stderr!.on("data", check);
    proc.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}:\n${out}`)));
  });
  return { proc, url };
}

function installPortkey(): string {
  const entry = `${PEERS_DIR}/node_modules/@portkey-ai/gateway/build/start-server.js`;
  if (!fs.existsSync(entry)) {
    fs.mkdirSync(PEERS_DIR, { recursive: true });
    const r = spawnSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", PEERS_DIR, PORTKEY], {
      stdio: "inherit",
    });
    if (r.status !== 0) throw new Error(`could not install ${PORTKEY}`);
  }
  return entry;
}

function load(t: Target, connections: number, duration: number): Promise<Result> {
  return autocannon({
    url: `${t.url}/v1/chat/completions`,
    method: "POST",
    connections,
    duration,
    headers: { "content-type": "application/json", ...t.headers },
    body: chatBody(false),
  });
}

async function ttfbs(t: Target): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next++ < STREAMS) {
        const started = performance.now();
        const res = await fetch(`${t.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", ...t.headers },
          body: chatBody(true),
        });
        if (res.status !== 200 || !res.body) throw new Error(`${t.name} answered ${res.status}`);
        let first = 0;
        for await (const bytes of res.body) if (bytes.byteLength && !first) first = performance.now() - started;
        out.push(first);
      }
    }),
  );
  return out;
}

async function measure(t: Target) {
  await load(t, CONNECTIONS, 2);
  const one = await load(t, 1, Math.max(3, SECONDS / 2));
  const { result: many, cpuUs } = await cpuPerRequest(t.pid || undefined, () => load(t, CONNECTIONS, SECONDS));
  if (many.non2xx || many.errors) throw new Error(`${t.name}: ${many.non2xx} non-2xx, ${many.errors} errors`);
  // Portkey 1.15.2 fails every stream on Node 20 (a 500: it appends to a fetch Response's immutable
  // headers); that is reported instead of a number.
  const streams = await ttfbs(t).catch((err: Error) => err);
  return {
    one,
    many,
    cpuUs,
    ttfb: streams instanceof Error ? streams : { p50: percentile(streams, 50), p99: percentile(streams, 99) },
    rss: t.pid ? rssMb(t.pid) : NaN,
  };
}

type Ttfb = { p50: number; p99: number } | Error;
const added = (t: Ttfb, base: Ttfb, p: "p50" | "p99") =>
  t instanceof Error ? `failed: ${t.message}` : base instanceof Error ? NaN : +(t[p] - base[p]).toFixed(2);

async function main() {
  const portkeyEntry = installPortkey();
  const fake = await startScriptServer("bench/fake-chat-server.ts");
  const backend = await backendEnv(process.env.PEERS_BACKEND === "postgres" ? "postgres" : "pglite");
  const env = {
    ...backend.env,
    LOG_LEVEL: "warn",
    SERVE_PORTAL: "false",
    XAI_API_KEY: "bench",
    UPSTREAM_XAI_URL: fake.url,
  };
  const ours = await startCompiledServer(env);
  const portkeyPort = await freePort();
  const portkey = await spawnListening(
    process.execPath,
    [portkeyEntry, `--port=${portkeyPort}`, "--headless"],
    { ...process.env, NODE_ENV: "production" },
    /(http:\/\/localhost:\d+)/,
  );
  const procs: ChildProcess[] = [portkey.proc];
  try {
    const key = await createBenchKey(env);
    const targets: Target[] = [
      { name: "provider straight", url: fake.url, headers: {} },
      { name: "this gateway", url: ours.url, pid: ours.proc.pid, headers: { authorization: `Bearer ${key}` } },
      {
        name: "Portkey 1.15.2",
        url: `http://127.0.0.1:${portkeyPort}`,
        pid: portkey.proc.pid,
        headers: {
          authorization: "Bearer bench",
          "x-portkey-provider": "openai",
          "x-portkey-custom-host": `${fake.url}/v1`,
        },
      },
    ];
    const results = [];
    for (const t of targets) results.push({ t, r: await measure(t) });
    const direct = results[0]!.r;
    console.table(
      results.slice(1).map(({ t, r }) => ({
        gateway: t.name,
        "added p50 ms (1 conn)": +(r.one.latency.p50 - direct.one.latency.p50).toFixed(2),
        "added p99 ms (1 conn)": +(r.one.latency.p99 - direct.one.latency.p99).toFixed(2),
        "added TTFB p50 ms": added(r.ttfb, direct.ttfb, "p50"),
        "added TTFB p99 ms": added(r.ttfb, direct.ttfb, "p99"),
        "throughput vs straight": +(r.many.requests.average / direct.many.requests.average).toFixed(3),
        "req/s (20 conn)": Math.round(r.many.requests.average),
        "CPU µs/req": Math.round(r.cpuUs),
        "RSS MB": r.rss,
      })),
    );
    console.log(
      `provider straight: ${Math.round(direct.many.requests.average)} req/s at ${CONNECTIONS} connections, p50 ${direct.one.latency.p50} ms at 1`,
    );
    const [us, them] = [results[1]!.r, results[2]!.r];
    // Lower is better on each column but throughput; a peer's failed stream loses its column.
    const ttfb = (t: Ttfb, p: "p50" | "p99") => (t instanceof Error ? Infinity : t[p]);
    const columns: Array<[string, number, number]> = [
      ["added p50", us.one.latency.p50, them.one.latency.p50],
      ["added p99", us.one.latency.p99, them.one.latency.p99],
      ["added TTFB p50", ttfb(us.ttfb, "p50"), ttfb(them.ttfb, "p50")],
      ["added TTFB p99", ttfb(us.ttfb, "p99"), ttfb(them.ttfb, "p99")],
      ["throughput", -us.many.requests.average, -them.many.requests.average],
      ["CPU a request", us.cpuUs, them.cpuUs],
      ["RSS", us.rss, them.rss],
    ];
    const lost = columns.filter(([, ours, theirs]) => ours > theirs).map(([name]) => name);
    report({
      bench: "peers",
      measure: "columns where this gateway leads Portkey 1.15.2 (ties count as leads)",
      value: columns.length - lost.length,
      unit: `of ${columns.length}`,
      target: `>= ${columns.length}`,
      note: lost.length ? `behind on ${lost.join(", ")}` : "ahead on every column",
    });
  } finally {
    fake.stop();
    for (const p of procs) p.kill("SIGTERM");
    await ours.stop();
    await backend.cleanup();
  }
}

await main();
