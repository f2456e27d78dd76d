import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeWikipedia } from "../../../test/fakes/data-sources.ts";
import { startFakeAnthropic, startFakeOpenAICompatible } from "../../../test/fakes/llm.ts";
import type { TestGateway } from "../../../test/support/gateway.ts";
import { listen, type Listening } from "../../../test/support/listen.ts";
import { useGateway } from "../../../test/support/use-gateway.ts";
import { plainLane, planFor } from "./plain-lane.ts";

/**
 * The gateway as server.ts serves it: the plain lane in front of the Hono app on a real socket, against
 * the same app answering alone on another. Every answer the lane gives must be the app's: status, body
 * and header names, errors included; what it does not answer must reach the app.
 */
describe("the plain lane", () => {
  const t = useGateway({
    fakes: async () => [
      await startFakeWikipedia(),
      await startFakeOpenAICompatible({ key: "xai-k", reply: "Grok says hi." }),
      await startFakeAnthropic({ key: "an-k", reply: "Claude says hi." }),
      await startFakeOpenAICompatible({
        key: "oa-k",
        reply: Array.from({ length: 200 }, (_, i) => `w${i} `).join(""),
        delayMs: 20,
      }),
    ],
    env: ([wiki, xai, anthropic, slow]) => ({
      OPENAI_API_KEY: "oa-k",
      UPSTREAM_OPENAI_URL: slow.url,
      UPSTREAM_WIKIPEDIA_URL: wiki.url,
      XAI_API_KEY: "xai-k",
      UPSTREAM_XAI_URL: xai.url,
      ANTHROPIC_API_KEY: "an-k",
      UPSTREAM_ANTHROPIC_URL: anthropic.url,
    }),
  });
  let gw: TestGateway;
  let lane: Listening<http.Server>;
  let alone: Listening;
  let laneUrl: string;
  let appUrl: string;
  let appCalls = 0;
  let key: string;

  beforeAll(async () => {
    gw = t.gw;
    const app = getRequestListener(gw.app.fetch);
    lane = await listen(
      http.createServer(
        plainLane(gw.rt, gw.app, (req, res) => {
          appCalls += 1;
          void app(req, res);
        }),
      ),
    );
    alone = await listen(gw.app.fetch);
    laneUrl = lane.url;
    appUrl = alone.url;
    key = t.key;
  });
  afterAll(async () => {
    await lane?.close();
    await alone?.close();
  });

  const names = (h: Headers) =>
    [...h.keys()].filter((n) => !["date", "connection", "keep-alive", "content-length"].includes(n)).sort();

  /** The request through the lane (which must answer it itself) and to the app alone. */
  async function both(path: string, headers: Record<string, string> = {}) {
    const before = appCalls;
    const viaLane = await fetch(`${laneUrl}${path}`, { headers });
    const laneText = await viaLane.text();
    expect(appCalls, "answered by the lane").toBe(before);
    const viaApp = await fetch(`${appUrl}${path}`, { headers });
    const appText = await viaApp.text();
    expect(viaLane.status).toBe(viaApp.status);
    expect(names(viaLane.headers)).toEqual(names(viaApp.headers));
    expect(viaLane.headers.get("content-type")).toBe(viaApp.headers.get("content-type"));
    expect(Number(viaLane.headers.get("content-length"))).toBe(Buffer.byteLength(laneText));
    return { viaLane, lane: JSON.parse(laneText) as Record<string, unknown>, app: JSON.parse(appText) as unknown };
  }

  /** The POST through the lane (which must answer it itself) and to the app alone: status, headers, text. */
  async function bothPost(path: string, body: unknown, headers: Record<string, string> = {}) {
    const init = (): RequestInit => ({
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const before = appCalls;
    const viaLane = await fetch(`${laneUrl}${path}`, init());
    const laneText = await viaLane.text();
    expect(appCalls, "answered by the lane").toBe(before);
    const viaApp = await fetch(`${appUrl}${path}`, init());
    const appText = await viaApp.text();
    expect(viaLane.status).toBe(viaApp.status);
    expect(names(viaLane.headers)).toEqual(names(viaApp.headers));
    expect(viaLane.headers.get("content-type")).toBe(viaApp.headers.get("content-type"));
    return { viaLane, laneText, appText };
  }

  /** A Responses answer's id (and its items' ids, made from it) is random: the same for comparison. */
  const randomIds = (text: string) => text.replace(/\b(resp|msg)_[0-9a-f]{32}/g, "$1_ID");

  it("answers the chat surfaces' completions as the app does: OpenAI's, Anthropic's and the gateway's own", async () => {
    const hello = [{ role: "user", content: "Hello?" }];
    const openai = await bothPost(
      "/v1/chat/completions",
      { model: "xai/grok-4", messages: hello },
      { Authorization: `Bearer ${key}`, "X-Request-Id": "lane-chat" },
    );
    expect(openai.viaLane.status).toBe(200);
    expect(openai.viaLane.headers.get("x-request-id")).toBe("lane-chat");
    expect(openai.viaLane.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(JSON.parse(openai.laneText)).toEqual(JSON.parse(openai.appText));
    expect(JSON.parse(openai.laneText)).toMatchObject({
      model: "xai/grok-4",
      choices: [{ message: { content: "Grok says hi." } }],
    });
    // Translated from OpenAI's wire (xai) and passed through from Anthropic's, with its beta header.
    for (const model of ["xai/grok-4", "anthropic/claude-sonnet-4-5"]) {
      const messages = await bothPost(
        "/v1/messages",
        { model, max_tokens: 50, messages: hello },
        { "x-api-key": key, "X-Request-Id": "lane-msg", "anthropic-beta": "tools-2024" },
      );
      expect(messages.viaLane.status).toBe(200);
      expect(JSON.parse(messages.laneText)).toEqual(JSON.parse(messages.appText));
      expect(JSON.parse(messages.laneText)).toMatchObject({ type: "message", model });
    }
    const responses = await bothPost(
      "/v1/responses",
      { model: "xai/grok-4", input: "Hello?", store: false },
      { Authorization: `Bearer ${key}`, "X-Request-Id": "lane-resp" },
    );
    expect(responses.viaLane.status).toBe(200);
    // The same answer, but for its creation second and the id the gateway draws at random for each response.
    const withoutTime = (text: string) => JSON.parse(randomIds(text).replace(/"created_at":\d+/, '"created_at":0'));
    expect(withoutTime(responses.laneText)).toEqual(withoutTime(responses.appText));
    expect(JSON.parse(responses.laneText)).toMatchObject({ object: "response", output_text: "Grok says hi." });
    const own = await bothPost("/v1/llm/chat", { messages: hello }, { "X-API-Key": key });
    expect(own.viaLane.status).toBe(200);
    const { latency_ms: _l, ...lane } = JSON.parse(own.laneText) as Record<string, unknown>;
    const { latency_ms: _a, ...app } = JSON.parse(own.appText) as Record<string, unknown>;
    expect(lane).toEqual(app);
    expect(lane.content).toBe("Grok says hi.");
  });

  it("streams the chat surfaces as the app does, and meters each stream's tokens and bytes when it ends", async () => {
    const record = vi.spyOn(gw.rt.meter, "record");
    try {
      const hello = [{ role: "user", content: "Hello?" }];
      const cases: Array<[string, unknown, Record<string, string>]> = [
        ["/v1/chat/completions", { model: "xai/grok-4", messages: hello, stream: true }, { "X-API-Key": key }],
        ["/v1/messages", { model: "xai/grok-4", max_tokens: 50, messages: hello, stream: true }, { "x-api-key": key }],
        [
          "/v1/messages",
          { model: "anthropic/claude-sonnet-4-5", max_tokens: 50, messages: hello, stream: true },
          { "x-api-key": key },
        ],
        ["/v1/llm/chat?stream=true", { messages: hello }, { "X-API-Key": key }],
        ["/v1/responses", { model: "xai/grok-4", input: "Hello?", stream: true, store: false }, { "X-API-Key": key }],
      ];
      for (const [path, body, headers] of cases) {
        const { viaLane, laneText, appText } = await bothPost(path, body, { ...headers, "X-Request-Id": "lane-s" });
        expect(viaLane.status).toBe(200);
        expect(viaLane.headers.get("content-type")).toMatch(/^text\/event-stream/);
        expect(viaLane.headers.get("x-request-id")).toBe("lane-s");
        expect(viaLane.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
        // The same events, but for the times in them and the response id drawn at random for each.
        const events = (text: string) => randomIds(text).replace(/"(latency_ms|created_at|created)":\d+/g, "");
        expect(events(laneText)).toBe(events(appText));
        expect(laneText).toMatch(/says|hi/);
      }
      await vi.waitFor(() => expect(record.mock.calls.length).toBe(cases.length * 2));
      const viaLane = record.mock.calls.map(([e]) => e).filter((_, i) => i % 2 === 0);
      expect(viaLane.map((e) => [e.route, e.method, e.area, e.status])).toEqual([
        ["/v1/chat/completions", "POST", "llm", 200],
        ["/v1/messages", "POST", "llm", 200],
        ["/v1/messages", "POST", "llm", 200],
        ["/v1/llm/chat", "POST", "llm", 200],
        ["/v1/responses", "POST", "llm", 200],
      ]);
      for (const event of viaLane) {
        expect(event.completionTokens).toBeGreaterThan(0);
        expect(event.bytesOut).toBeGreaterThan(0);
        expect(event.provider).toMatch(/^(xai|anthropic)$/);
      }
    } finally {
      record.mockRestore();
    }
  });

  it("stops the provider's stream when the client leaves one the lane answers, and meters what was sent", async () => {
    const slow = t.fakes[3];
    const record = vi.spyOn(gw.rt.meter, "record");
    try {
      const before = appCalls;
      const leaving = new AbortController();
      const res = await fetch(`${laneUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": key },
        body: JSON.stringify({ model: "openai/gpt-5", messages: [{ role: "user", content: "Go on" }], stream: true }),
        signal: leaving.signal,
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let text = "";
      while (!text.includes("w3")) text += new TextDecoder().decode((await reader.read()).value);
      leaving.abort();
      await vi.waitFor(() => expect(slow.abandoned()).toBe(1), { timeout: 5000 });
      await vi.waitFor(() => expect(record).toHaveBeenCalledTimes(1));
      expect(appCalls).toBe(before);
      const [event] = record.mock.calls[0]!;
      expect(event).toMatchObject({ route: "/v1/chat/completions", status: 200, provider: "openai" });
      expect(event.bytesOut).toBeGreaterThan(0);
    } finally {
      record.mockRestore();
    }
  });

  it("answers a chat surface's refusals in that surface's shape, as the app does", async () => {
    const hello = [{ role: "user", content: "Hello?" }];
    const cases: Array<[string, unknown, Record<string, string>, number]> = [
      ["/v1/chat/completions", { model: "xai/grok-4" }, { "X-API-Key": key }, 400],
      ["/v1/chat/completions", "{not json", { "X-API-Key": key }, 400],
      ["/v1/chat/completions", { model: "xai/grok-4", messages: hello, temperature: 5 }, { "X-API-Key": key }, 400],
      [
        "/v1/chat/completions",
        { model: "xai/grok-4", messages: hello },
        { "X-API-Key": "gw_live_not_a_key_000000" },
        401,
      ],
      ["/v1/messages", { model: "xai/grok-4", messages: hello }, { "x-api-key": key }, 400],
      ["/v1/messages", "[1,", { "x-api-key": key }, 400],
      [
        "/v1/messages",
        { model: "xai/grok-4", max_tokens: 5, messages: hello },
        { "x-api-key": "gw_live_nope_0000" },
        401,
      ],
      ["/v1/llm/chat", { messages: [] }, { "X-API-Key": key }, 400],
      [
        "/v1/responses",
        { model: "xai/grok-4", input: "Hi", previous_response_id: "resp_nope" },
        { "X-API-Key": key },
        404,
      ],
      ["/v1/llm/chat", { messages: [{ role: "user", content: "a\u0000b" }] }, { "X-API-Key": key }, 400],
    ];
    for (const [path, body, headers, status] of cases) {
      const { viaLane, laneText, appText } = await bothPost(path, body, headers);
      expect(viaLane.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(JSON.parse(laneText)).toEqual(JSON.parse(appText));
    }
    const openai = await bothPost("/v1/chat/completions", { model: "xai/grok-4" }, { "X-API-Key": key });
    expect(JSON.parse(openai.laneText)).toMatchObject({ error: { type: "invalid_request_error", param: "messages" } });
    const anthropic = await bothPost("/v1/messages", "[1,", { "x-api-key": key });
    expect(JSON.parse(anthropic.laneText)).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: "Malformed JSON in request body" },
    });

    const once = (await gw.key({ minute: 1 })).key;
    const ask = (url: string) =>
      fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": once },
        body: JSON.stringify({ model: "xai/grok-4", messages: hello }),
      });
    const before = appCalls;
    expect((await ask(laneUrl)).status).toBe(200);
    const limited = await ask(laneUrl);
    expect(appCalls).toBe(before);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({ error: { type: "rate_limit_error", code: "rate_limit_exceeded" } });
    const byApp = await ask(appUrl);
    expect(byApp.status).toBe(429);
    expect(names(limited.headers)).toEqual(names(byApp.headers));
  });

  it("answers GET /v1/key as the app does, with the caller's request id and the limit headers", async () => {
    const { viaLane, lane: body, app } = await both("/v1/key", { "X-API-Key": key, "X-Request-Id": "lane-1" });
    expect(viaLane.status).toBe(200);
    expect(viaLane.headers.get("x-request-id")).toBe("lane-1");
    expect(viaLane.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    // The windows count each request: the two answers differ by the one between them.
    const { remaining: _lane, ...rest } = body;
    const { remaining: _app, ...appRest } = app as Record<string, unknown>;
    expect(rest).toEqual(appRest);
    expect(Object.keys(body.remaining as object)).toEqual(["minute", "day", "concurrency"]);
  });

  it("takes the key from each place the app does, and refuses it as the app does", async () => {
    expect((await both("/v1/key", { Authorization: `Bearer ${key}` })).viaLane.status).toBe(200);
    expect((await both(`/v1/key?api_key=${key}`)).viaLane.status).toBe(200);
    const invalid = await both("/v1/key", { "X-API-Key": "gw_live_not_a_key_at_all_0000000000" });
    expect(invalid.viaLane.status).toBe(401);
    expect(invalid.lane).toEqual(invalid.app);
    expect(invalid.viaLane.headers.get("www-authenticate")).toBe('Bearer realm="gateway"');
    const malformed = await both("/v1/key", { Authorization: "Basic abc" });
    expect(malformed.viaLane.status).toBe(401);
    expect(malformed.lane).toEqual(malformed.app);
    const twoKeys = await both("/v1/key?api_key=other", { "X-API-Key": key });
    expect(twoKeys.viaLane.status).toBe(400);
    expect(twoKeys.lane).toEqual(twoKeys.app);
  });

  it("refuses a key outside its scopes (403) and one over its minute limit (429, Form B)", async () => {
    const scoped = (await gw.key({ scopes: ["llm"] })).key;
    const outOfScope = await both("/v1/data/wikipedia/search?q=ada", { "X-API-Key": scoped });
    expect(outOfScope.viaLane.status).toBe(403);
    expect(outOfScope.lane).toEqual(outOfScope.app);

    const once = (await gw.key({ minute: 1 })).key;
    const before = appCalls;
    const first = await fetch(`${laneUrl}/v1/key`, { headers: { "X-API-Key": once } });
    expect(first.status).toBe(200);
    const limited = await fetch(`${laneUrl}/v1/key`, { headers: { "X-API-Key": once } });
    expect(appCalls).toBe(before);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
    const byApp = await fetch(`${appUrl}/v1/key`, { headers: { "X-API-Key": once } });
    expect(byApp.status).toBe(429);
    expect(names(limited.headers)).toEqual(names(byApp.headers));
  });

  it("answers a data search with the untrusted-content headers and the app's validation errors", async () => {
    const ok = await both("/v1/data/wikipedia/search?q=ada&limit=2", { "X-API-Key": key });
    expect(ok.viaLane.status).toBe(200);
    expect(ok.lane).toEqual(ok.app);
    expect(ok.viaLane.headers.get("content-security-policy")).toBeTruthy();
    const generic = await both("/v1/data/arxiv/search?q=", { "X-API-Key": key });
    expect(generic.viaLane.status).toBe(400);
    expect(generic.lane).toEqual(generic.app);
    const badLimit = await both("/v1/data/wikipedia/search?q=ada&limit=lots", { "X-API-Key": key });
    expect(badLimit.viaLane.status).toBe(400);
    expect(badLimit.lane).toEqual(badLimit.app);
    const unknownSource = await both("/v1/data/nowhere/search?q=ada", { "X-API-Key": key });
    expect(unknownSource.viaLane.status).toBe(400);
    expect(unknownSource.lane).toEqual(unknownSource.app);
    const worker = await both("/v1/data/wikipedia/search?q=ada", { "X-API-Key": key, "Service-Worker": "script" });
    expect(worker.viaLane.status).toBe(403);
    expect(worker.lane).toEqual(worker.app);
  });

  it("answers the AAC symbol searches, pre-serialised, as the app does", async () => {
    for (const path of ["/v1/aac/symbols/search?q=cat&limit=3", "/v1/aac/symbols/local?q=happy&set=mulberry"]) {
      const { viaLane, lane: body, app } = await both(path, { "X-API-Key": key });
      expect(viaLane.status).toBe(200);
      expect(body).toEqual(app);
      expect((body.results as unknown[]).length).toBeGreaterThan(0);
    }
    const tooMany = await both("/v1/aac/symbols/search?q=cat&limit=5000", { "X-API-Key": key });
    expect(tooMany.viaLane.status).toBe(400);
    expect(tooMany.lane).toEqual(tooMany.app);
  });

  it("meters what it answers under the route's template and area, refusals included", async () => {
    const record = vi.spyOn(gw.rt.meter, "record");
    try {
      await (await fetch(`${laneUrl}/v1/data/wikipedia/search?q=ada`, { headers: { "X-API-Key": key } })).text();
      await (await fetch(`${laneUrl}/v1/data/wikipedia/search?limit=x`, { headers: { "X-API-Key": key } })).text();
      const events = record.mock.calls.map(([e]) => e);
      expect(events).toHaveLength(2);
      expect(events[0]).toMatchObject({ method: "GET", route: "/v1/data/wikipedia/search", area: "data", status: 200 });
      expect(events[0]!.bytesOut).toBeGreaterThan(0);
      expect(events[1]).toMatchObject({ route: "/v1/data/wikipedia/search", status: 400 });
    } finally {
      record.mockRestore();
    }
  });

  it("leaves to the app what it does not answer: no key, HEAD, other methods, unplain routes and paths", async () => {
    const byApp = async (path: string, init: RequestInit = {}) => {
      const before = appCalls;
      const res = await fetch(`${laneUrl}${path}`, init);
      await res.arrayBuffer();
      return { status: res.status, byApp: appCalls === before + 1 };
    };
    const keyed = { "X-API-Key": key };
    expect(await byApp("/v1/key")).toEqual({ status: 401, byApp: true });
    expect(await byApp("/v1/key", { method: "HEAD", headers: keyed })).toEqual({ status: 200, byApp: true });
    expect(await byApp("/v1/key", { method: "POST", headers: keyed })).toEqual({ status: 405, byApp: true });
    expect(await byApp("/v1/key/", { headers: keyed })).toEqual({ status: 200, byApp: true });
    expect(await byApp("/v1/data/sources", { headers: keyed })).toEqual({ status: 200, byApp: true });
    expect(await byApp("/v1/data/wiki%70edia/search?q=ada", { headers: keyed })).toMatchObject({ byApp: true });
    // A POST the lane does not read itself: no key, another type or none, no declared length, over the cap.
    const hello = JSON.stringify({ model: "xai/grok-4", messages: [{ role: "user", content: "Hi" }] });
    const json = { "content-type": "application/json" };
    expect(await byApp("/v1/chat/completions", { method: "POST", headers: json, body: hello })).toEqual({
      status: 401,
      byApp: true,
    });
    const post = (headers: Record<string, string>, body: BodyInit) =>
      byApp("/v1/chat/completions", { method: "POST", headers: { ...keyed, ...headers }, body });
    expect(await post({ "content-type": "text/plain" }, hello)).toEqual({ status: 415, byApp: true });
    expect(await post({}, new Blob([hello]))).toEqual({ status: 415, byApp: true });
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(hello));
        controller.close();
      },
    });
    expect(
      await byApp("/v1/chat/completions", {
        method: "POST",
        headers: { ...keyed, ...json },
        body: chunked,
        duplex: "half",
      } as RequestInit),
    ).toEqual({ status: 200, byApp: true });
    const huge = JSON.stringify({ model: "xai/grok-4", messages: [{ role: "user", content: "x".repeat(11 << 20) }] });
    expect(await post(json, huge)).toEqual({ status: 413, byApp: true });
  });

  it("plans only the routes the app would run as plain ones", () => {
    expect(planFor(gw.app, "/v1/key")).toMatchObject({ route: "/v1/key", area: "account" });
    // The source's own route is registered before the generic one, and is the one Hono runs.
    expect(planFor(gw.app, "/v1/data/wikipedia/search")).toMatchObject({ route: "/v1/data/wikipedia/search" });
    expect(planFor(gw.app, "/v1/data/arxiv/search")).toMatchObject({
      route: "/v1/data/:source/search",
      params: { source: "arxiv" },
      area: "data",
    });
    expect(planFor(gw.app, "/v1/data/sources")).toBeNull();
    expect(planFor(gw.app, "/v1/llm/chat")).toBeNull();
    expect(planFor(gw.app, "/v1/llm/chat", "POST")).toMatchObject({ route: "/v1/llm/chat", area: "llm" });
    expect(planFor(gw.app, "/v1/chat/completions", "POST")).toMatchObject({ route: "/v1/chat/completions" });
    // Routes not declared with bodyHandler stay the app's.
    expect(planFor(gw.app, "/v1/llm/tiered-select", "POST")).toBeNull();
    expect(planFor(gw.app, "/v1/key", "POST")).toBeNull();
    expect(planFor(gw.app, "/v1/nothing/here")).toBeNull();
  });
});
