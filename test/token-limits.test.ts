import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOperatorServer } from "../lib/gateway/keys/operator.ts";
import { startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { limitBackends } from "./support/backends.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { runKeysCli } from "./support/server-process.ts";

// Every call the fakes answer is metered as 10 prompt + 20 completion tokens: 30 a call.
const USAGE = { prompt_tokens: 10, completion_tokens: 20 };
// "xai/grok-4" + "user" + "Count me." is 23 characters, 6 tokens; with max_tokens 50 a call reserves 56.
const body = (extra: object = {}) =>
  JSON.stringify({ model: "xai/grok-4", messages: [{ role: "user", content: "Count me." }], max_tokens: 50, ...extra });

/**
 * A key's token limits: each model call reserves its prompt's estimated size and its maximum output at
 * admission, and is settled with the tokens it was metered for; a call that does not fit is a 429 that
 * names the token window, in the surface's error shape.
 */
describe.each(limitBackends)("token limits per key (%s limits)", (limits) => {
  let gw: TestGateway;
  let xai: FakeLlm;
  let anthropic: FakeLlm;
  let release: () => void = () => {};
  let held: Promise<void> | undefined;

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({
      key: "xai-k",
      reply: "Counted.",
      usage: USAGE,
      hold: () => held ?? Promise.resolve(),
    });
    anthropic = await startFakeAnthropic({ key: "ant-k", reply: "Counted.", usage: USAGE });
    Object.assign(process.env, {
      XAI_API_KEY: "xai-k",
      UPSTREAM_XAI_URL: xai.url,
      ANTHROPIC_API_KEY: "ant-k",
      UPSTREAM_ANTHROPIC_URL: anthropic.url,
    });
    gw = await startTestGateway({ limits });
  });
  afterAll(async () => {
    release();
    await gw?.close();
    await xai?.close();
    await anthropic?.close();
  });

  const chat = (key: string, extra: object = {}) =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body(extra),
    });

  // The day window where calls follow one another: the minute's slides (stores.test.ts times it on a
  // clock of its own), and a slow machine crossing a minute here would free tokens mid-test.
  it("admits calls while their reservations fit the day, counting what each really used", async () => {
    // A key of its own: the Redis counters outlive test runs, and a new key starts at 0.
    const { key } = await gw.key({ tokensDay: 200 });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      last = await chat(key);
      statuses.push(last.status);
    }
    // Used 30 a call: 5 calls leave 50, and the sixth's 56 does not fit. Counting the reservations
    // instead (56 a call) would have refused the fourth.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const error = (await last!.json()) as { error: { message: string; type?: string; code?: string } };
    expect(error.error.message).toMatch(/at most 200 tokens per day/);
    expect(error.error.message).toMatch(/50 are left/);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("x-ratelimit-remaining-tokens")).toBe("50");
  });

  it("refuses a call that could never fit, saying what to change, and says nothing of tokens to a key without limits", async () => {
    const { key } = await gw.key({ tokensMinute: 200 });
    const tooBig = await chat(key, { max_tokens: 500 });
    expect(tooBig.status).toBe(429);
    expect(((await tooBig.json()) as { error: { message: string } }).error.message).toMatch(
      /at most 200 tokens per minute, and this request needs up to 506 .* lower max_tokens/,
    );
    const fine = await chat(key);
    expect(fine.status).toBe(200);
    expect(fine.headers.get("x-ratelimit-limit-tokens")).toBe("200");

    const own = await gw.request("/v1/key", { headers: { authorization: `Bearer ${key}` } });
    expect(((await own.json()) as { token_limits: object }).token_limits).toEqual({ minute: 200, day: null });

    // Reading the models reserves nothing, however little the key has left.
    expect((await gw.request("/v1/models", { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

    const plainKey = (await gw.key()).key;
    const plain = await chat(plainKey);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("x-ratelimit-limit-tokens")).toBeNull();
    const plainInfo = await gw.request("/v1/key", { headers: { authorization: `Bearer ${plainKey}` } });
    expect(((await plainInfo.json()) as { token_limits: object }).token_limits).toEqual({ minute: null, day: null });
  });

  it("settles a streamed call with the tokens it was metered for once the stream ends", async () => {
    const { key } = await gw.key({ tokensDay: 120 });
    const streamed = await chat(key, { stream: true, stream_options: { include_usage: true } });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("x-ratelimit-remaining-tokens")).toBe("64");
    await streamed.text();
    // Settled to 30 as the stream ended: with a small call between (7 reserved, 30 used) a call of 56
    // fits 120 (30 + 30 + 56); had the stream kept its 56, it would not (56 + 30 + 56).
    expect((await chat(key, { max_tokens: 1 })).status).toBe(200);
    expect((await chat(key)).status).toBe(200);
  });

  it("answers a refusal in Anthropic's shape on /v1/messages, for the day window", async () => {
    const { key } = await gw.key({ tokensDay: 100 });
    const ask = () =>
      gw.request("/v1/messages", {
        method: "POST",
        headers: { "x-api-key": key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
        body: JSON.stringify({
          model: "anthropic/claude-sonnet-4-5",
          max_tokens: 50,
          messages: [{ role: "user", content: "Count me." }],
        }),
      });
    // Anthropic's fake meters a call 9 + 1 tokens; each reserves 10 + 50: the sixth does not fit 100.
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 6; i++) {
      refused = await ask();
      statuses.push(refused.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const error = (await refused!.json()) as { type: string; error: { type: string; message: string } };
    expect(error.type).toBe("error");
    expect(error.error.type).toBe("rate_limit_error");
    expect(error.error.message).toMatch(/tokens per day/);
  });

  it("holds each call's reservation while it runs: of 8 at once, only those that fit go to the provider", async () => {
    const { key } = await gw.key({ tokensDay: 200 });
    held = new Promise((resolve) => (release = resolve));
    const sent = xai.requests.length;
    const answered: number[] = [];
    const calls = Array.from({ length: 8 }, () =>
      chat(key).then((r) => {
        answered.push(r.status);
        return r;
      }),
    );
    // 3 reservations of 56 fit 200; the other 5 are refused at once, while the 3 are still running.
    await expect.poll(() => answered.length).toBe(5);
    expect(answered).toEqual([429, 429, 429, 429, 429]);
    expect(xai.requests.length - sent).toBe(3);
    release();
    held = undefined;
    const statuses = (await Promise.all(calls)).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
  });

  it("takes --tokens-minute and --tokens-day (and the cache's --cache-max-age, --semantic-cache) on the keys CLI", async () => {
    // The CLI reaches this gateway (it owns the database) through its loopback operator endpoint.
    const operator = await startOperatorServer(gw.rt);
    try {
      const made = await runKeysCli(
        ["create", "--name", `tokens-${limits}`, "--tokens-minute", "1000", "--tokens-day", "5000"],
        gw.env,
      );
      expect(made.code, made.stderr).toBe(0);
      const { id } = made.lines[0] as { id: string };
      const row = await gw.rt.db.prisma.apiKey.findUnique({ where: { id } });
      expect(row).toMatchObject({ tokenMinuteLimit: 1000, tokenDayLimit: 5000 });
      const refused = await runKeysCli(["create", "--name", "bad", "--tokens-minute", "0"], gw.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/--tokens-minute must be a positive integer/);
      const cached = await runKeysCli(
        ["create", "--name", `cached-${limits}`, "--cache-max-age", "600", "--semantic-cache"],
        gw.env,
      );
      expect(cached.code, cached.stderr).toBe(0);
      const cachedRow = await gw.rt.db.prisma.apiKey.findUnique({
        where: { id: (cached.lines[0] as { id: string }).id },
      });
      expect(cachedRow).toMatchObject({ cacheMaxAge: 600, cacheSemantic: true });
      const alone = await runKeysCli(["create", "--name", "bad", "--semantic-cache"], gw.env);
      expect(alone.code).toBe(1);
      expect(alone.stderr).toMatch(/--semantic-cache needs --cache-max-age/);
    } finally {
      await operator.close();
    }
  });
});
