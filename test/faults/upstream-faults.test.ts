import http from "node:http";
import { describe, expect, it } from "vitest";
import { listen } from "../support/listen.ts";
import { useGateway } from "../support/use-gateway.ts";
import { readStream, report } from "./fault-support.ts";

type Fault = "hang" | "reset" | "malformed-json" | "half-sse" | "hang-mid-sse";

/** An OpenAI-compatible provider that fails as `fault` says, on the wire (no framework to tidy it up). */
async function startFaultyProvider() {
  const state = { fault: "hang" as Fault };
  const open = new Set<http.ServerResponse>();
  const delta = (text: string) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: "grok-4-fast", choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      open.add(res);
      res.on("close", () => open.delete(res));
      switch (state.fault) {
        case "hang":
          return;
        case "reset":
          return void req.socket.destroy();
        case "malformed-json":
          res.writeHead(200, { "content-type": "application/json" });
          return void res.end('{"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":');
        case "half-sse":
        case "hang-mid-sse":
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write(delta("Half "));
          res.write(delta("an answer"));
          // A chunk cut mid-JSON, then the connection drops (or nothing more ever comes).
          res.write('data: {"id":"c1","choices":[{"delta":{"cont');
          if (state.fault === "half-sse") setTimeout(() => req.socket.destroy(), 50);
          return;
      }
    });
  });
  const { url, close } = await listen(server);
  return {
    url,
    state,
    close: async () => {
      for (const res of open) res.destroy();
      await close();
    },
  };
}

const LLM_TIMEOUT_MS = 2_000;

describe("upstream faults: a provider that hangs, resets, sends malformed JSON or half a stream", () => {
  let provider: Awaited<ReturnType<typeof startFaultyProvider>>;
  const t = useGateway({
    fakes: async () => {
      provider = await startFaultyProvider();
      return [provider];
    },
    env: () => ({
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: provider.url,
      LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
    }),
    // Every case here fails on the one provider, so the model router's breaker would open after the
    // fifth and answer the rest with 503 (test/model-routing.test.ts covers that): each fault must
    // reach the provider and be answered for what it is.
    config: { GATEWAY_BREAKER_THRESHOLD: "1000" },
    key: { minute: 1000 },
  });
  const messages = [{ role: "user", content: "Hello?" }];

  /** The answer a client gets, bounded: never longer than the gateway's timeout plus a margin. */
  async function call(path: string, body: Record<string, unknown>) {
    const started = Date.now();
    const res = await Promise.race([
      t.post(path, body),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${path} did not answer`)), LLM_TIMEOUT_MS + 8_000),
      ),
    ]);
    const type = res.headers.get("content-type") ?? "";
    if (type.startsWith("text/event-stream")) {
      const events = await readStream(res).events;
      return { status: res.status, type, ms: Date.now() - started, events, json: undefined };
    }
    const text = await res.text();
    return { status: res.status, type, ms: Date.now() - started, events: undefined, json: JSON.parse(text) as unknown };
  }

  const cases: Array<[Fault, boolean]> = [
    ["hang", false],
    ["hang", true],
    ["reset", false],
    ["reset", true],
    ["malformed-json", false],
    ["half-sse", true],
    ["hang-mid-sse", true],
  ];

  for (const [path, shape] of [
    ["/v1/llm/chat", "gateway"],
    ["/v1/chat/completions", "openai"],
  ] as const) {
    it(`${path}: a clear 502/504 JSON error or a stream ended by an error event, never a hang or a 500`, async () => {
      const seen: string[] = [];
      for (const [fault, stream] of cases) {
        provider.state.fault = fault;
        const body = shape === "openai" ? { model: "xai/grok-4-fast", messages, stream } : { messages, stream };
        const answer = await call(path, body);
        const label = `${fault}${stream ? " (stream)" : ""}`;
        expect(answer.ms, label).toBeLessThan(LLM_TIMEOUT_MS + 5_000);
        if (answer.events) {
          // Failed after the first words: the 200 stream ends with an error event, never silently.
          expect(answer.status, label).toBe(200);
          const last = answer.events.filter((e) => !("raw" in e)).at(-1) as Record<string, unknown>;
          expect(JSON.stringify(last), label).toMatch(/error/);
          seen.push(`${label}: 200 stream, ${answer.events.length} events, last ${JSON.stringify(last)}`);
        } else {
          expect([502, 504], `${label}: ${JSON.stringify(answer.json)}`).toContain(answer.status);
          expect(answer.type, label).toMatch(/^application\/json/);
          const text = JSON.stringify(answer.json);
          expect(text, label).toMatch(/error/);
          expect(text, label).not.toMatch(/\bat .+\.(ts|js):\d+/);
          seen.push(`${label}: ${answer.status} ${text}`);
        }
        if (fault.startsWith("hang")) expect(answer.status === 504 || answer.events !== undefined, label).toBe(true);
      }
      report(`upstream faults on ${path}`, { clients: seen, lost: 0 });
    }, 90_000);
  }

  it("meters every one of those calls", async () => {
    await t.gw.rt.meter.flush();
    const events = await t.gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: t.keyId } });
    expect(events).toHaveLength(cases.length * 2);
    expect(events.every((e) => e.status === 200 || e.status === 502 || e.status === 504)).toBe(true);
  });
});
