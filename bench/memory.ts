// A lean process: the compiled server's resident memory (RSS) on each database backend, API only and with
// the portal — right after start, idle (once V8 has given back what start-up used: its memory reducer
// runs after ~20 s of quiet), and after one request to every area has loaded what each area needs.
// Targets: idle RSS <= 300 MB on PGlite, <= 150 MB on PostgreSQL, <= 400 MB with the portal.
// The RSS under 1,000 open streams is bench/llm-stream.ts's.
import { setTimeout as sleep } from "node:timers/promises";
import sharp from "sharp";
import { backendEnv, type DatabaseBackend } from "../test/support/backends.ts";
import { ensureNextBuild } from "../test/support/next-build.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { report } from "./results.ts";
import { createBenchKey, rssMb, startScriptServer } from "./support.ts";

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);

type Config = { label: string; db: DatabaseBackend; portal: boolean; target: number; reopen?: boolean };

const CONFIGS: Config[] = [
  { label: "PGlite, API only", db: "pglite", portal: false, target: 300 },
  { label: "PGlite reopened, API only", db: "pglite", portal: false, target: 300, reopen: true },
  ...(process.env.DATABASE_URL
    ? [{ label: "PostgreSQL, API only", db: "postgres" as const, portal: false, target: 150 }]
    : []),
  { label: "PGlite, with the portal", db: "pglite", portal: true, target: 400 },
];

/** One request that makes each area do its work (and so load its modules). */
async function everyArea(url: string, key: string, png: Buffer): Promise<string[]> {
  const json = { "content-type": "application/json", "X-API-Key": key };
  const calls: Array<[string, string, RequestInit?]> = [
    ["status", "/health"],
    ["key", "/v1/key"],
    ["usage", "/v1/usage"],
    ["capabilities", "/v1/capabilities"],
    [
      "chat",
      "/v1/chat/completions",
      {
        method: "POST",
        body: JSON.stringify({ model: "xai/grok-4-fast", messages: [{ role: "user", content: "hi" }] }),
      },
    ],
    [
      "messages",
      "/v1/messages",
      {
        method: "POST",
        body: JSON.stringify({ model: "xai/grok-4-fast", max_tokens: 16, messages: [{ role: "user", content: "hi" }] }),
      },
    ],
    ["responses", "/v1/responses", { method: "POST", body: JSON.stringify({ model: "xai/grok-4-fast", input: "hi" }) }],
    [
      "llm",
      "/v1/llm/chat",
      { method: "POST", body: JSON.stringify({ provider: "xai", messages: [{ role: "user", content: "hi" }] }) },
    ],
    ["models", "/v1/models"],
    [
      "utils: image",
      "/v1/utils/images/resize?width=64",
      { method: "POST", body: new Uint8Array(png), headers: { "content-type": "image/png", "X-API-Key": key } },
    ],
    [
      "utils: citation",
      "/v1/utils/citations/format",
      { method: "POST", body: JSON.stringify({ source: { title: "A title", author: "Ada Lovelace", year: 1843 } }) },
    ],
    [
      "utils: data",
      "/v1/utils/convert",
      { method: "POST", body: JSON.stringify({ data: "a: 1", from: "yaml", to: "json" }) },
    ],
    [
      "utils: format",
      "/v1/utils/format/convert",
      { method: "POST", body: JSON.stringify({ content: "# Hi", from: "markdown", to: "html" }) },
    ],
    [
      "utils: keywords",
      "/v1/utils/text/keywords",
      {
        method: "POST",
        body: JSON.stringify({ text: "Gateways relay requests to providers and meter usage per key." }),
      },
    ],
    ["documents", "/v1/documents/generate", { method: "POST", body: JSON.stringify({ title: "T", content: "Body" }) }],
    ["etymology", "/v1/etymology/explore/running"],
    ["aac", "/v1/aac/symbols/search?q=dogs"],
    ["clinical", "/v1/clinical/search?q=fever"],
    ["corpus", "/v1/corpus/search?q=the"],
    ["linguistics", "/v1/linguistics/languages?limit=5"],
    ["trove", "/v1/trove"],
    ["datavis", "/v1/datavis/list"],
    ["generators", "/v1/generators/dadjokes/random"],
    ["create", "/v1/create"],
    ["tools", "/v1/tools/"],
    [
      "mcp",
      "/v1/mcp",
      {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        headers: { ...json, accept: "application/json, text/event-stream" },
      },
    ],
    ["data", "/v1/data/sources"],
    ["swarm", "/v1/swarm/health"],
    ["orchestrate", "/v1/orchestrate/unknown-task/status"],
    [
      "social",
      "/v1/social/search",
      { method: "POST", body: JSON.stringify({ query: "gateway", platform: "all", limit: 1 }) },
    ],
    ["proxy", "/v1/proxy?url=http://127.0.0.1:1/"],
  ];
  const statuses: string[] = [];
  for (const [area, path, init] of calls) {
    const res = await fetch(url + path, {
      ...init,
      headers: { "X-API-Key": key, ...(init?.body ? json : {}), ...init?.headers },
    });
    await res.arrayBuffer();
    statuses.push(`${area} ${res.status}`);
  }
  return statuses;
}

async function main() {
  const fake = await startScriptServer("bench/fake-chat-server.ts");
  const png = await sharp({ create: { width: 256, height: 256, channels: 3, background: "#3a7" } })
    .png()
    .toBuffer();
  if (CONFIGS.some((c) => c.portal)) ensureNextBuild();
  const rows = [];
  let reopenable: Awaited<ReturnType<typeof backendEnv>> | undefined;
  try {
    for (const config of CONFIGS) {
      const backend = config.reopen && reopenable ? reopenable : await backendEnv(config.db);
      const env = {
        ...backend.env,
        LOG_LEVEL: "warn",
        SERVE_PORTAL: String(config.portal),
        XAI_API_KEY: "bench",
        UPSTREAM_XAI_URL: fake.url,
      };
      const server = await startCompiledServer(env);
      const pid = server.proc.pid!;
      try {
        await sleep(3000);
        const started = rssMb(pid);
        await sleep(IDLE_SECONDS * 1000);
        const idle = rssMb(pid);
        const key = await createBenchKey(env);
        const statuses = await everyArea(server.url, key, png);
        await sleep(3000);
        const used = rssMb(pid);
        rows.push({
          server: config.label,
          "after start MB": started,
          "idle MB": idle,
          "every area MB": used,
          "target (idle) MB": config.target,
        });
        report({
          bench: "memory",
          measure: `idle RSS, ${config.label}`,
          value: idle,
          unit: "MB",
          target: `<= ${config.target}`,
          note: `${started} MB 3 s after start, ${used} MB after one request to every area`,
        });
        if (config === CONFIGS[0]) console.log(`requests to every area: ${statuses.join(", ")}`);
      } finally {
        await server.stop();
        if (config.db === "pglite" && !config.reopen && !reopenable) reopenable = backend;
        else await backend.cleanup();
      }
    }
    console.table(rows);
  } finally {
    fake.stop();
    await reopenable?.cleanup();
  }
}

await main();
