import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "./support/listen.ts";
import { useGateway } from "./support/use-gateway.ts";

/**
 * A provider that never answers: it counts the chat requests it is sent and those whose caller hung up
 * on it before an answer, which is how a stopped provider call shows from the provider's side.
 */
async function startSilentProvider() {
  let received = 0;
  let hungUp = 0;
  const server = http.createServer((req, res) => {
    received += 1;
    req.resume();
    res.once("close", () => {
      if (!res.writableFinished) hungUp += 1;
    });
  });
  const listening = await listen(server);
  return { url: listening.url, received: () => received, hungUp: () => hungUp, close: () => listening.close() };
}
type SilentProvider = Awaited<ReturnType<typeof startSilentProvider>>;

const hello = [{ role: "user", content: "Hello?" }];
// The chat surfaces' non-streamed calls, on a provider of OpenAI's wire and on Anthropic's own.
const calls: Array<[string, object]> = [
  ["/v1/chat/completions", { model: "xai/grok-4", messages: hello }],
  ["/v1/messages", { model: "xai/grok-4", max_tokens: 10, messages: hello }],
  ["/v1/messages", { model: "anthropic/claude-sonnet-4-5", max_tokens: 10, messages: hello }],
  ["/v1/responses", { model: "xai/grok-4", input: "Hello?", store: false }],
];

describe("a non-streamed chat whose client leaves, or whose provider never answers", () => {
  const t = useGateway({
    fakes: async () => [await startSilentProvider()],
    env: ([provider]) => ({
      XAI_API_KEY: "x",
      UPSTREAM_XAI_URL: provider.url,
      ANTHROPIC_API_KEY: "a",
      UPSTREAM_ANTHROPIC_URL: provider.url,
      LLM_TIMEOUT_MS: "1500",
    }),
  });
  let provider: SilentProvider;
  let server: Listening<http.Server>;
  beforeAll(async () => {
    [provider] = t.fakes;
    server = await listen(http.createServer(t.gw.app.node));
  });
  afterAll(() => server?.close());

  const post = (path: string, body: object, signal?: AbortSignal) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": t.key },
      body: JSON.stringify(body),
      signal,
    });

  it("stops the provider's call when the client hangs up", async () => {
    for (const [path, body] of calls) {
      const before = { received: provider.received(), hungUp: provider.hungUp() };
      const leaving = new AbortController();
      const pending = post(path, body, leaving.signal).catch((err: Error) => err);
      await expect.poll(() => provider.received(), { timeout: 5000 }).toBe(before.received + 1);
      leaving.abort();
      expect(await pending).toBeInstanceOf(Error);
      // Well before the 1.5 s deadline would have ended it.
      await expect.poll(() => provider.hungUp(), { timeout: 1000, interval: 20 }).toBe(before.hungUp + 1);
    }
  });

  it("ends the provider's call at LLM_TIMEOUT_MS with a 504 in the surface's shape", async () => {
    for (const [path, body] of calls) {
      const before = provider.hungUp();
      const started = performance.now();
      const res = await post(path, body);
      expect(res.status, path).toBe(504);
      const error = ((await res.json()) as { error: { message?: string } | string }).error;
      expect(typeof error === "object" ? error.message : error).toMatch(/time|answer/i);
      expect(performance.now() - started).toBeGreaterThan(1400);
      await expect.poll(() => provider.hungUp(), { timeout: 1000 }).toBe(before + 1);
    }
  });
});
