import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { listen } from "./support/listen.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/llm/batch", () => {
  let xai: FakeLlm;
  let slow: FakeLlm;
  // Batch items are not streamed, so only a held answer keeps a batch from finishing before the test looks.
  let releaseSlow!: () => void;
  const slowHeld = new Promise<void>((resolve) => (releaseSlow = resolve));
  const t = useGateway({
    fakes: async () => [
      (xai = await startFakeOpenAICompatible({ key: "k", reply: "Batch answer." })),
      (slow = await startFakeOpenAICompatible({ key: "k", reply: "Slow answer.", hold: () => slowHeld })),
    ],
    env: () => ({ XAI_API_KEY: "k", UPSTREAM_XAI_URL: xai.url, MISTRAL_API_KEY: undefined }),
  });
  const call = (path: string, init: RequestInit = {}, apiKey = t.key) =>
    t.gw.request(path, { ...init, headers: { "content-type": "application/json", "X-API-Key": apiKey } });
  const requests = ["a", "b", "c"].map((id) => ({
    custom_id: id,
    messages: [{ role: "user", content: `question ${id}` }],
  }));

  async function waitFor(id: string, status: string) {
    for (let i = 0; i < 100; i++) {
      const b = await (await call(`/v1/llm/batch/${id}`)).json();
      if (b.status === status) return b;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`batch ${id} never reached ${status}`);
  }

  it("creates (201, both paths), runs in the background, and returns results in order", async () => {
    const res = await call("/v1/llm/batch", { method: "POST", body: JSON.stringify({ requests }) });
    expect(res.status).toBe(201);
    const batch = await res.json();
    expect(batch).toMatchObject({ status: "queued", request_counts: { total: 3, processing: 3 } });
    const done = await waitFor(batch.id, "processing_complete");
    expect(done.request_counts).toEqual({ total: 3, succeeded: 3, errored: 0, processing: 0, not_run: 0 });
    const results = await (await call(`/v1/llm/batch/${batch.id}/results`)).json();
    expect(results.results.map((r: { custom_id: string }) => r.custom_id)).toEqual(["a", "b", "c"]);
    expect(results.results[0]).toMatchObject({
      status: "succeeded",
      content: "Batch answer.",
      usage: { completion_tokens: 2 },
    });
    expect(
      xai.requests.filter((r) => r.path.endsWith("/chat/completions")).every((r) => r.body.max_tokens === 1024),
    ).toBe(true);

    const formB = await call("/v1/llm/batch/create", {
      method: "POST",
      body: JSON.stringify({ requests: requests.slice(0, 1), max_tokens: 64 }),
    });
    expect(formB.status).toBe(201);
    const formBBatch = await formB.json();

    await t.gw.rt.meter.flush();
    const items = await t.gw.rt.db.prisma.usageEvent.findMany({
      where: { keyId: t.keyId, route: "/v1/llm/batch#item" },
    });
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.every((e) => e.completionTokens === 2)).toBe(true);

    const list = await (await call("/v1/llm/batch?limit=1")).json();
    expect(list.count).toBe(1);
    expect(list.batches[0].id).toBe(formBBatch.id);
  });

  it("answers 409 with the status before the batch is complete, and 404 to other keys", async () => {
    process.env.UPSTREAM_XAI_URL = slow.url;
    try {
      const batch = await (await call("/v1/llm/batch", { method: "POST", body: JSON.stringify({ requests }) })).json();
      const early = await call(`/v1/llm/batch/${batch.id}/results`);
      expect(early.status).toBe(409);
      expect((await early.json()).error).toMatch(/batch is (queued|in_progress)/);
      const stranger = await t.gw.key();
      expect((await call(`/v1/llm/batch/${batch.id}`, {}, stranger.key)).status).toBe(404);
      releaseSlow();
      await waitFor(batch.id, "processing_complete");
    } finally {
      releaseSlow();
      process.env.UPSTREAM_XAI_URL = xai.url;
    }
  });

  it("refuses an unconfigured provider, duplicate ids and empty batches", async () => {
    const unconfigured = await call("/v1/llm/batch", {
      method: "POST",
      body: JSON.stringify({ requests, provider: "mistral" }),
    });
    expect(unconfigured.status).toBe(503);
    const dupes = await call("/v1/llm/batch", {
      method: "POST",
      body: JSON.stringify({ requests: [requests[0], requests[0]] }),
    });
    expect(dupes.status).toBe(400);
    expect((await dupes.json()).error).toMatch(/unique/);
    expect((await call("/v1/llm/batch", { method: "POST", body: JSON.stringify({ requests: [] }) })).status).toBe(400);
    expect((await call("/v1/llm/batch/task_nope")).status).toBe(404);
  });
});

describe("/v1/llm/batch: fair use of the job runner", () => {
  // Operator settings reach the gateway through its config env; provider settings through process.env.
  const t = {} as { gw: TestGateway; key: string; llm: FakeLlm };
  const saved = { ...process.env };
  // Every item's answer waits until the first test lets go, so its batches stay running and queued while it
  // asks for more, however long each create takes on a busy machine.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  beforeAll(async () => {
    t.llm = await startFakeOpenAICompatible({ key: "k", reply: "Held answer.", hold: () => held });
    Object.assign(process.env, { XAI_API_KEY: "k", UPSTREAM_XAI_URL: t.llm.url });
    t.gw = await startTestGateway({
      env: { JOBS_CONCURRENCY: "1", JOBS_QUEUED_PER_KEY: "1", BATCH_ITEMS_PER_DAY: "6" },
    });
    t.key = (await t.gw.key()).key;
  });
  afterAll(async () => {
    release();
    process.env = saved;
    await t.gw?.close();
    await t.llm?.close();
  });
  const create = (n: number, apiKey = t.key) =>
    t.gw.request("/v1/llm/batch", {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": apiKey },
      body: JSON.stringify({
        requests: Array.from({ length: n }, (_, i) => ({
          custom_id: `q${i}`,
          messages: [{ role: "user", content: `question ${i}` }],
        })),
      }),
    });
  const status = async (id: string) =>
    (await t.gw.request(`/v1/llm/batch/${id}`, { headers: { "X-API-Key": t.key } })).json();
  const settled = async (id: string) => {
    for (let i = 0; i < 200; i++) {
      if ((await status(id)).status === "processing_complete") return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`batch ${id} never finished`);
  };

  it("answers 429 (Form B, Retry-After) past the key's queued jobs, while another key still gets in", async () => {
    let running: { id: string }, queued: { id: string };
    try {
      const first = await create(1);
      expect(first.status).toBe(201);
      running = await first.json();
      await expect
        .poll(async () => (await status(running.id)).status, { timeout: 30_000, interval: 50 })
        .toBe("in_progress");
      const second = await create(1);
      expect(second.status).toBe(201);
      queued = await second.json();
      expect(queued).toMatchObject({ status: "queued", queue_position: 1 });
      const refused = await create(1);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await refused.json()).toEqual({
        error: {
          code: "rate_limit_exceeded",
          message: expect.stringMatching(/1 jobs waiting to start \(at most 1\)/),
          retry_after: Number(refused.headers.get("retry-after")),
        },
      });
      const other = await t.gw.key();
      expect((await create(1, other.key)).status).toBe(201);
    } finally {
      release();
    }
    await settled(running.id);
    await settled(queued.id);
    await t.gw.rt.runner.drained();
  });

  it("counts batch items against the key's items per UTC day", async () => {
    // 2 items are used by the batches above (the refused one wrote nothing); 6 a day.
    const tooMany = await create(5);
    expect(tooMany.status).toBe(429);
    const body = await tooMany.json();
    expect(body.error).toMatchObject({
      code: "rate_limit_exceeded",
      message: expect.stringMatching(/6 items per key per UTC day; 4 left today and this batch has 5/),
    });
    expect(body.error.retry_after).toBeGreaterThan(0);
    expect(body.error.retry_after).toBeLessThanOrEqual(86_400);
    expect(tooMany.headers.get("retry-after")).toBe(String(body.error.retry_after));
    const fits = await create(4);
    expect(fits.status).toBe(201);
    await settled((await fits.json()).id);
    expect((await create(1)).status).toBe(429);
  });
});

describe("/v1/llm/batch: a large batch while its provider cannot be reached", () => {
  // A loopback port nothing listens on: every item's call is refused at once.
  const t = useGateway({
    fakes: async () => {
      const closed = await listen(net.createServer());
      await closed.close();
      return [{ url: closed.url, close: () => undefined }];
    },
    env: ([dead]) => ({ XAI_API_KEY: "k", UPSTREAM_XAI_URL: dead.url }),
  });

  it("ends in seconds with every item errored, answering status requests meanwhile", async () => {
    // The most items a batch may hold, with text enough for a task row of megabytes. Each item's
    // progress write read that row back (with PGlite, on this thread): the batch took minutes, and
    // requests beside it (its own status, another batch's create) waited behind it.
    const requests = Array.from({ length: 1000 }, (_, i) => ({
      custom_id: `q${i}`,
      messages: Array.from({ length: 20 }, () => ({ role: "user", content: "a question ".repeat(20) })),
    }));
    const created = await t.post("/v1/llm/batch", { requests });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    // Minutes before the fix; a few seconds after, even on a busy machine.
    await expect
      .poll(async () => (await (await t.get(`/v1/llm/batch/${id}`)).json()).status, { timeout: 45_000, interval: 200 })
      .toBe("processing_complete");
    const done = await (await t.get(`/v1/llm/batch/${id}`)).json();
    expect(done.request_counts).toEqual({ total: 1000, succeeded: 0, errored: 1000, processing: 0, not_run: 0 });
    const results = await (await t.get(`/v1/llm/batch/${id}/results`)).json();
    expect(results.results[999]).toMatchObject({
      custom_id: "q999",
      status: "errored",
      // The first items meet the refused connection; once the breaker opens, the rest are not sent.
      error: expect.stringMatching(/^xai could not be reached$|circuit breaker is open/),
    });
  });
});
