import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { percentile } from "../../bench/support.ts";
import { FAULTY_REPLY, startFaultyProvider, type FaultyProvider } from "../fakes/faulty-llm.ts";
import { ask, readAnswer, SURFACES } from "../support/compat-surfaces.ts";
import { startRoutedGateway, type RoutedGateway } from "../support/routing-gateway.ts";

// `npm run test:load` sets 30 s; `npm test` runs this bounded version.
const SECONDS = Number(process.env.LOAD_SECONDS ?? 5);
const CLIENTS = Number(process.env.LOAD_ROUTING_CLIENTS ?? 16);
// What the faulty provider reports for every answer, whichever deployment gave it.
const TOKENS = { prompt: 7, completion: 3 };

type Tally = { requests: number; clientErrors: string[]; latenciesMs: number[]; bySurface: Map<string, number> };

/**
 * The issue's load case for the model router: an alias over deployment A, which fails half its calls
 * (500, 429 with Retry-After: 0, or the connection reset, at random), then B, which is healthy. Clients
 * call every compatible surface, whole and streamed, for LOAD_SECONDS: none may see an error, both
 * deployments must have answered, and each request is metered once, for the deployment that answered.
 */
describe(`model routing under load: A fails half its calls, B is healthy (${CLIENTS} clients, ${SECONDS} s)`, () => {
  let gw: RoutedGateway;
  let key: string;
  let flaky: FaultyProvider;
  let healthy: FaultyProvider;
  // Breakers shared through Redis outlive the gateway: this run's names are its own.
  const a = `load-a-${randomUUID().slice(0, 8)}`;
  const b = `load-b-${randomUUID().slice(0, 8)}`;
  const credentials = { LOAD_A_KEY: "a-key", LOAD_B_KEY: "b-key" };

  beforeAll(async () => {
    [flaky, healthy] = await Promise.all([startFaultyProvider(), startFaultyProvider()]);
    gw = await startRoutedGateway({
      limits: process.env.REDIS_URL ? "redis" : "memory",
      routing: {
        deployments: [
          { name: a, provider: "openai", model: "gpt-4.1", credential: "LOAD_A_KEY", origin: `${flaky.url}/flaky` },
          {
            name: b,
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            credential: "LOAD_B_KEY",
            origin: `${healthy.url}/ok`,
          },
        ],
        // The default retries: A once more after a failure, then B.
        aliases: { smart: { strategy: "fallback", deployments: [a, b] } },
      },
      providerEnv: credentials,
      env: {
        // Most calls try A and fall over from it; its breaker still opens now and then, and closes again
        // after a probe, so the skipping path is under load too.
        GATEWAY_BREAKER_THRESHOLD: "50",
        GATEWAY_BREAKER_COOLDOWN_MS: "500",
        // Every request's row is checked, so none may be left out of the log.
        REQUEST_LOG_ROWS_PER_KEY_SECOND: "0",
      },
      key: { minute: 10_000_000, day: 100_000_000, concurrency: 10_000 },
    });
    key = gw.apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([flaky?.close(), healthy?.close()]);
    if (process.env.REDIS_URL) {
      const redis = new Redis(process.env.REDIS_URL);
      await redis.hdel("gw:breaker:open", a, b);
      await redis.quit();
    }
  });

  it(
    "answers every client without an error, from A and from B, metering each request once",
    { timeout: 120_000 + SECONDS * 3000 },
    async () => {
      const tally: Tally = { requests: 0, clientErrors: [], latenciesMs: [], bySurface: new Map() };
      const deadline = performance.now() + SECONDS * 1000;
      const client = async (n: number) => {
        for (let i = n; performance.now() < deadline; i++) {
          // Each client walks through every surface, whole and streamed.
          const surface = SURFACES[i % SURFACES.length]!;
          const stream = Math.floor(i / SURFACES.length) % 2 === 1;
          const cell = `${surface}${stream ? "+stream" : ""}`;
          const started = performance.now();
          tally.requests++;
          tally.bySurface.set(cell, (tally.bySurface.get(cell) ?? 0) + 1);
          try {
            const res = await ask(gw, key, surface, "smart", stream, `load-${randomUUID()}`);
            if (res.status !== 200) {
              tally.clientErrors.push(`${cell}: ${res.status} ${(await res.text()).slice(0, 200)}`);
              continue;
            }
            const answer = await readAnswer(res, surface, stream);
            if (answer.errorEvent !== undefined || answer.text !== FAULTY_REPLY)
              tally.clientErrors.push(`${cell}: ${answer.errorEvent ?? `answered ${JSON.stringify(answer.text)}`}`);
            else tally.latenciesMs.push(performance.now() - started);
          } catch (err) {
            tally.clientErrors.push(`${cell}: ${(err as Error).message}`);
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

      await gw.rt.meter.flush();
      const rows = await gw.rt.db.prisma.usageEvent.groupBy({
        by: ["provider", "status"],
        where: { requestId: { startsWith: "load-" } },
        _count: { _all: true },
        _sum: { promptTokens: true, completionTokens: true },
      });
      const metered = (provider: string) => rows.find((r) => r.provider === provider && r.status === 200);
      const aFailures = [...flaky.hits].filter(([mode]) => mode !== "ok");
      const attempts = (await (await gw.request("/metrics")).text())
        .split("\n")
        .filter((line) => line.startsWith("gateway_llm_attempts_total{"))
        .map((line) => line.replace("gateway_llm_attempts_total", "").replaceAll(a, "A").replaceAll(b, "B"));
      const ms = (p: number) => (tally.latenciesMs.length ? percentile(tally.latenciesMs, p).toFixed(1) : "-");
      console.log(
        [
          `routing load: ${tally.requests} requests in ${SECONDS} s by ${CLIENTS} clients, ${tally.clientErrors.length} client errors`,
          `  by surface: ${[...tally.bySurface].map(([cell, n]) => `${cell} ${n}`).join(", ")}`,
          `  A: ${flaky.answered()} answered, failed ${aFailures.map(([mode, n]) => `${mode} ×${n}`).join(", ")}`,
          `  B: ${healthy.answered()} answered`,
          `  metered: ${rows.map((r) => `${r.provider}/${r.status} ×${r._count._all}`).join(", ")}`,
          `  attempts: ${attempts.join(", ")}`,
          `  latency ms: p50 ${ms(50)}, p99 ${ms(99)}`,
        ].join("\n"),
      );

      expect(tally.clientErrors.slice(0, 10)).toEqual([]);
      expect(flaky.answered()).toBeGreaterThan(0);
      expect(aFailures.length).toBeGreaterThan(0);
      expect(healthy.answered()).toBeGreaterThan(0);
      // One row per request, each for the deployment whose answer the client got, with its tokens alone.
      expect(rows.filter((r) => r.status !== 200)).toEqual([]);
      expect(metered("openai")?._count._all).toBe(flaky.answered());
      expect(metered("anthropic")?._count._all).toBe(healthy.answered());
      expect(flaky.answered() + healthy.answered()).toBe(tally.requests);
      for (const provider of ["openai", "anthropic"])
        expect(metered(provider)?._sum).toEqual({
          promptTokens: TOKENS.prompt * metered(provider)!._count._all,
          completionTokens: TOKENS.completion * metered(provider)!._count._all,
        });
    },
  );
});
