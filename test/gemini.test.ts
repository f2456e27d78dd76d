import { describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini } from "./fakes/gemini.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("Gemini-backed endpoints: grounded chat, code execution, video", () => {
  let gemini: FakeGemini;
  const t = useGateway({
    fakes: async () => [(gemini = await startFakeGemini("g-key"))],
    env: () => ({ GEMINI_API_KEY: "g-key", UPSTREAM_GEMINI_URL: gemini.url, VIDEO_POLL_MS: "20" }),
  });
  const { post } = t;

  it("grounds an answer in search, with de-duplicated sources and the queries it ran", async () => {
    const res = await post("/v1/llm/grounded-chat", { prompt: "Where were the 2024 Olympics?" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      content: "Paris hosted the 2024 Olympics.",
      grounding_sources: [
        { title: "example.org", uri: "https://example.org/olympics" },
        { title: "news.example", uri: "https://news.example/paris" },
      ],
      search_queries: ["2024 olympics host city"],
      model: "gemini-2.5-flash",
    });
    expect(gemini.requests.at(-1)!.body.tools).toEqual([{ google_search: {} }]);
    await post("/v1/llm/grounded-chat", {
      messages: [{ role: "user", content: "q" }],
      model: "gemini-1.5-flash",
      dynamic_threshold: 0.7,
    });
    expect(gemini.requests.at(-1)!.body.tools).toEqual([
      { google_search_retrieval: { dynamic_retrieval_config: { mode: "MODE_DYNAMIC", dynamic_threshold: 0.7 } } },
    ]);
    expect((await post("/v1/llm/grounded-chat", { dynamic_threshold: 2, prompt: "x" })).status).toBe(400);
    expect((await post("/v1/llm/grounded-chat", {})).status).toBe(400);
  });

  it("returns the executed code, its output and the chart", async () => {
    const body = await (await post("/v1/llm/code-execute", { prompt: "Sum 0..9 and plot it" })).json();
    expect(body).toMatchObject({
      code: "print(sum(range(10)))",
      output: "45\n",
      content: "I'll compute it.The sum is 45.",
    });
    expect(Buffer.from(body.chart, "base64").subarray(1, 4).toString()).toBe("PNG");
  });

  it("starts a video as a pending task and reports the URL once the operation is done", async () => {
    const res = await post("/v1/llm/video/generate", { prompt: "a paper boat", aspect_ratio: "9:16", duration: 10 });
    expect(res.status).toBe(202);
    const { task_id, status } = await res.json();
    expect(status).toBe("pending");
    expect(gemini.requests.at(-1)!.body).toEqual({
      instances: [{ prompt: "a paper boat" }],
      parameters: { aspectRatio: "9:16", durationSeconds: 8 },
    });
    let state: Record<string, unknown> = {};
    // Polled for as long as a busy machine takes, not a number of tries that races the clock.
    await expect
      .poll(
        async () => {
          state = await (await t.gw.request(`/v1/llm/video/${task_id}`, { headers: { "X-API-Key": t.key } })).json();
          return state.status;
        },
        { timeout: 30_000, interval: 20 },
      )
      .toBe("completed");
    expect(state).toMatchObject({
      status: "completed",
      video_url: "https://videos.example/veo-3.0-generate-001-op1.mp4",
    });
    expect((await t.gw.request("/v1/llm/video/task_missing", { headers: { "X-API-Key": t.key } })).status).toBe(404);
  });

  it("sends Veo 3 only durations and aspect ratios it makes: the spec's 5 and 10 s become 6 and 8, the rest is a 400 first", async () => {
    const res = await post("/v1/llm/video/generate", { prompt: "a quiet harbour" });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({
      status: "pending",
      model: "veo-3.0-generate-001",
      aspect_ratio: "16:9",
      duration_seconds: 6,
    });
    expect(gemini.requests.at(-1)).toEqual({
      path: "/v1beta/models/veo-3.0-generate-001:predictLongRunning",
      body: { instances: [{ prompt: "a quiet harbour" }], parameters: { aspectRatio: "16:9", durationSeconds: 6 } },
    });
    expect(
      (await (await post("/v1/llm/video/generate", { prompt: "a long harbour", duration: 10 })).json())
        .duration_seconds,
    ).toBe(8);
    expect(
      (await (await post("/v1/llm/video/generate", { prompt: "a short harbour", duration: 4 })).json())
        .duration_seconds,
    ).toBe(4);
    const sent = gemini.requests.length;
    for (const [body, message] of [
      [
        { prompt: "square", aspect_ratio: "1:1" },
        /aspect_ratio '1:1' is not one veo-3.0-generate-001 makes: use 16:9 or 9:16/,
      ],
      [{ prompt: "seven", duration: 7 }, /duration 7 is not available: use 4, 5, 6, 8 or 10 seconds/],
      [{ prompt: "long", duration: 30 }, /duration 30/],
    ] as const) {
      const refused = await post("/v1/llm/video/generate", body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((await refused.json()).error).toMatch(message);
    }
    expect(gemini.requests.length).toBe(sent);
  });

  it("answers 503 naming GEMINI_API_KEY when Gemini is not configured", async () => {
    delete process.env.GEMINI_API_KEY;
    try {
      const res = await post("/v1/llm/code-execute", { prompt: "x" });
      expect(res.status).toBe(503);
      expect((await res.json()).error).toMatch(/GEMINI_API_KEY/);
    } finally {
      process.env.GEMINI_API_KEY = "g-key";
    }
  });
});
