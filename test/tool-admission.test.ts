import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeWikipedia, type FakeSource } from "./fakes/data-sources.ts";
import { startFakeResearchLlm, type FakeResearchLlm } from "./fakes/research-llm.ts";
import { listen, type Listening } from "./support/listen.ts";
import { useGateway } from "./support/use-gateway.ts";

// Tool calls are counted against the caller's key however they are made: one POST /v1/mcp batch or
// an agent's steps must not turn one admitted request into many unmetered upstream calls. Limits here
// are day limits: a minute's sliding window frees up at the next minute, which a test cannot pin.

type Text = { type: "text"; text: string };
type RpcAnswer = {
  id: number | null;
  result?: { isError?: boolean; content: Text[] };
  error?: { code: number; message: string };
};

const search = (id: number, query = `q${id}`) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "wikipedia_search", arguments: { query, limit: 1 } },
});
// Distinct queries: the same one would be answered once from the source and then from its cache.
const batchOf = (n: number, tag: string) => Array.from({ length: n }, (_, i) => search(i + 1, `${tag} ${i + 1}`));
const wikiHits = (wiki: FakeSource) => wiki.hits.filter((h) => h.startsWith("/w/api.php")).length;

describe("/v1/mcp: a batch is capped, runs a few calls at a time, and each call is a request of the key", () => {
  let wiki: FakeSource;
  const t = useGateway({
    fakes: async () => [(wiki = await startFakeWikipedia())],
    env: () => ({ UPSTREAM_WIKIPEDIA_URL: wiki.url }),
    key: { minute: 1000 },
  });
  let server: Listening;
  beforeAll(async () => void (server = await listen(t.gw.app.fetch)));
  afterAll(() => server?.close());

  const post = (key: string, body: unknown) =>
    fetch(new URL("/v1/mcp", server.url), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        Authorization: `Bearer ${key}`,
      },
      body: JSON.stringify(body),
    });
  const answers = async (res: Response) => ((await res.json()) as RpcAnswer[]).sort((a, b) => a.id! - b.id!);

  it("answers a batch of MCP_MAX_BATCH + 1 messages with a JSON-RPC error naming the cap, calling nothing", async () => {
    const before = wikiHits(wiki);
    const res = await post(t.key, batchOf(21, "over"));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(body.error.message).toMatch(/at most 20 messages \(MCP_MAX_BATCH\); this one has 21/);
    expect(wikiHits(wiki)).toBe(before);

    // At the cap, a batch is answered.
    const list = Array.from({ length: 20 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/list" }));
    const listed = await post(t.key, list);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toHaveLength(20);
  });

  it("runs a batch's tool calls at most 4 at a time (as the source sees them)", async () => {
    const before = wikiHits(wiki);
    wiki.inFlight.peak = 0;
    wiki.setDelay(150);
    try {
      const res = await post(t.key, batchOf(10, "parallel"));
      expect(res.status).toBe(200);
      const all = await answers(res);
      expect(all.map((a) => a.result?.isError ?? false)).toEqual(Array(10).fill(false));
    } finally {
      wiki.setDelay(0);
    }
    expect(wikiHits(wiki)).toBe(before + 10);
    expect(wiki.inFlight.peak).toBeLessThanOrEqual(4);
    expect(wiki.inFlight.peak).toBeGreaterThan(1);
  });

  it("with 3 requests left of 10 calls runs 3 (the POST pays for the first), refuses the rest, meters each", async () => {
    const { key, id } = await t.gw.key({ day: 3, minute: 1000 });
    const before = wikiHits(wiki);
    const res = await post(key, batchOf(10, "limited"));
    expect(res.status).toBe(200);
    const all = await answers(res);
    expect(wikiHits(wiki)).toBe(before + 3);
    expect(all.slice(0, 3).map((a) => a.result?.isError ?? false)).toEqual([false, false, false]);
    for (const refused of all.slice(3)) {
      expect(refused.result?.isError, String(refused.id)).toBe(true);
      expect(refused.result!.content[0]!.text).toMatch(
        /^rate limit exceeded: the daily limit of 3 .*\(retry after \d+ s\)$/,
      );
    }

    await t.gw.rt.meter.flush();
    const events = await t.gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: id }, orderBy: { id: "asc" } });
    expect(events.every((e) => e.route === "/v1/mcp" && e.area === "tools")).toBe(true);
    const count = (method: string, status: number) =>
      events.filter((e) => e.method === method && e.status === status).length;
    expect(count("POST", 200)).toBe(1);
    expect(count("TOOL", 200)).toBe(2);
    expect(count("TOOL", 429)).toBe(7);
    expect(events).toHaveLength(10);

    // The key is used up: the next POST itself is refused.
    expect((await post(key, search(1, "limited again"))).status).toBe(429);
  });

  it("a key's burst the source answers 429 leaves the source open to other keys", async () => {
    const other = await t.gw.key({ minute: 1000 });
    wiki.setStatus(429);
    try {
      const all = await answers(await post(t.key, batchOf(10, "burst")));
      for (const a of all) {
        expect(a.result?.isError, String(a.id)).toBe(true);
        expect(a.result!.content[0]!.text).toMatch(/wikipedia is rate limiting the gateway/);
      }
    } finally {
      wiki.setStatus(undefined);
    }
    // The source has recovered: another key is served, not told the circuit is open.
    const res = await t.gw.request("/v1/tools/wikipedia_search", {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": other.key },
      body: JSON.stringify({ query: "after the burst", limit: 1 }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).result.count).toBe(1);
  });
});

describe("agents' tool calls: each is a request of the key that started them", () => {
  let wiki: FakeSource;
  let llm: FakeResearchLlm;
  const t = useGateway({
    fakes: async () => [(wiki = await startFakeWikipedia()), (llm = await startFakeResearchLlm({ key: "xai-test" }))],
    env: () => ({ XAI_API_KEY: "xai-test", UPSTREAM_XAI_URL: llm.url, UPSTREAM_WIKIPEDIA_URL: wiki.url }),
    key: { minute: 1000 },
  });

  const toolEvents = async (keyId: string) => {
    await t.gw.rt.meter.flush();
    return t.gw.rt.db.prisma.usageEvent.findMany({ where: { keyId, method: "TOOL" } });
  };

  it("/v1/swarm/chat: a tool call is metered; with no request left it fails to the agent without reaching the source", async () => {
    const body = JSON.stringify({ prompt: "Who was Ada Lovelace?", tools: ["wikipedia_search"] });
    const chat = (key: string) =>
      t.gw.request("/v1/swarm/chat", {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": key },
        body,
      });

    const roomy = await t.gw.key({ minute: 1000 });
    const ok = await chat(roomy.key);
    expect(ok.status).toBe(200);
    expect((await ok.json()).tool_calls).toEqual([expect.objectContaining({ tool: "wikipedia_search", ok: true })]);
    expect((await toolEvents(roomy.id)).map((e) => [e.route, e.area, e.status])).toEqual([
      ["/v1/swarm/chat", "swarm", 200],
    ]);

    // The chat request is the key's last of the day: the agent runs, its tool call is refused.
    const { key, id } = await t.gw.key({ day: 1, minute: 1000 });
    const before = wikiHits(wiki);
    const res = await chat(key);
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer.tool_calls).toEqual([
      expect.objectContaining({
        tool: "wikipedia_search",
        ok: false,
        error: expect.stringMatching(/daily limit of 1/),
      }),
    ]);
    expect(wikiHits(wiki)).toBe(before);
    expect((await toolEvents(id)).map((e) => e.status)).toEqual([429]);
  });

  it("a research task (async) finds its key by id and stops its tool calls once the key refuses them", async () => {
    const { key, id } = await t.gw.key({ day: 1, minute: 1000 });
    const before = wikiHits(wiki);
    const started = await t.gw.request("/v1/orchestrate/dream-cascade?async=true", {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": key },
      body: JSON.stringify({ task: "History of computing", num_agents: 2 }),
    });
    expect(started.status).toBe(202);
    const { task_id } = await started.json();
    // The key has no request left to ask over HTTP: read the task where the gateway keeps it.
    await expect
      .poll(async () => (await t.gw.rt.tasks.getForOwner(task_id, id))?.status, { timeout: 30_000, interval: 100 })
      .toBe("completed");
    const task = await t.gw.rt.tasks.getForOwner(task_id, id);
    const calls = (
      task!.result as { agents: Array<{ tool_calls: Array<{ ok: boolean; error?: string }> }> }
    ).agents.flatMap((a) => a.tool_calls);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls)
      expect(call).toMatchObject({ ok: false, error: expect.stringMatching(/daily limit of 1/) });
    expect(wikiHits(wiki)).toBe(before);
    const events = await toolEvents(id);
    expect(events).toHaveLength(calls.length);
    expect(events.every((e) => e.status === 429 && e.route === "/v1/orchestrate/dream-cascade")).toBe(true);
  });
});
