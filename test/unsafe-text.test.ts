import { describe, expect, it } from "vitest";
import { startFakeGemini, type FakeGemini } from "./fakes/gemini.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { useGateway } from "./support/use-gateway.ts";

// Bodies are raw JSON text: JSON.stringify would write a lone surrogate as the six characters "\ud800",
// and a client sending that escape is exactly the attack (JSON.parse turns it back into a lone surrogate).
const NUL = "\\u0000";
const LONE = "\\ud800";
const chat = (extra: string) => `{"messages":[{"role":"user","content":"hi"}]${extra}}`;

type Case = { name: string; method: "GET" | "POST"; path: string; body?: string; field: string };
const cases: Case[] = [
  { name: "archive job id with NUL", method: "GET", path: "/v1/utils/archive/jobs/a%00b", field: "job_id" },
  { name: "batch id with NUL", method: "GET", path: "/v1/llm/batch/a%00b", field: "batch_id" },
  { name: "batch results id with NUL", method: "GET", path: "/v1/llm/batch/a%00b/results", field: "batch_id" },
  { name: "video task id with NUL", method: "GET", path: "/v1/llm/video/a%00b", field: "task_id" },
  {
    name: "wayback url query with NUL",
    method: "GET",
    path: "/v1/utils/archive/wayback?url=https%3A%2F%2Fexample.com%2F%00",
    field: "url",
  },
  {
    name: "batch model with NUL",
    method: "POST",
    path: "/v1/llm/batch",
    body: `{"model":"grok${NUL}x","requests":[{"custom_id":"a","messages":[{"role":"user","content":"q"}]}]}`,
    field: "model",
  },
  {
    name: "batch custom_id with NUL",
    method: "POST",
    path: "/v1/llm/batch",
    body: `{"requests":[{"custom_id":"ok","messages":[{"role":"user","content":"q"}]},{"custom_id":"a${NUL}","messages":[{"role":"user","content":"q"}]}]}`,
    field: "requests.1.custom_id",
  },
  {
    name: "archive url with NUL",
    method: "POST",
    path: "/v1/utils/archive/create",
    body: `{"url":"https://example.com/${NUL}"}`,
    field: "url",
  },
  {
    name: "archive url with a lone surrogate",
    method: "POST",
    path: "/v1/utils/archive/create",
    body: `{"url":"https://example.com/${LONE}"}`,
    field: "url",
  },
  {
    name: "video prompt with NUL",
    method: "POST",
    path: "/v1/llm/video/generate",
    body: `{"prompt":"a paper boat ${NUL}"}`,
    field: "prompt",
  },
  {
    name: "document title with a lone surrogate",
    method: "POST",
    path: "/v1/documents/generate",
    body: `{"title":"Report ${LONE}","content":"# Hi"}`,
    field: "title",
  },
  {
    name: "grounded-chat model with a lone surrogate",
    method: "POST",
    path: "/v1/llm/grounded-chat",
    body: `{"prompt":"q","model":"gemini-2.5-flash${LONE}"}`,
    field: "model",
  },
  {
    name: "code-execute model with a lone surrogate",
    method: "POST",
    path: "/v1/llm/code-execute",
    body: `{"prompt":"q","model":"gemini-2.5-flash${LONE}"}`,
    field: "model",
  },
  {
    name: "proxy url in a JSON body with NUL (a route that reads the body itself)",
    method: "POST",
    path: "/v1/proxy",
    body: `{"url":"https://example.com/${NUL}"}`,
    field: "url",
  },
  {
    name: "chat model with NUL",
    method: "POST",
    path: "/v1/llm/chat",
    body: chat(`,"model":"grok${NUL}x"`),
    field: "model",
  },
  {
    name: "chat message with a low surrogate alone",
    method: "POST",
    path: "/v1/llm/chat",
    body: `{"messages":[{"role":"user","content":"\\udc00 hi"}]}`,
    field: "messages.0.content",
  },
];

describe("NUL characters and lone surrogates in any input", () => {
  let gemini: FakeGemini;
  let xai: FakeLlm;
  // A provider claiming token counts no int column holds.
  let mistral: FakeLlm;
  const t = useGateway({
    fakes: async () => [
      (gemini = await startFakeGemini("g-key")),
      (xai = await startFakeOpenAICompatible({ key: "x-key", reply: "Hello." })),
      (mistral = await startFakeOpenAICompatible({
        key: "m-key",
        reply: "Hi.",
        usage: { prompt_tokens: 3_000_000_000, completion_tokens: 1.5 },
      })),
    ],
    env: () => ({
      GEMINI_API_KEY: "g-key",
      UPSTREAM_GEMINI_URL: gemini.url,
      XAI_API_KEY: "x-key",
      UPSTREAM_XAI_URL: xai.url,
      MISTRAL_API_KEY: "m-key",
      UPSTREAM_MISTRAL_URL: mistral.url,
    }),
  });

  it.each(cases)(
    "$name: 400 naming $field, nothing stored or sent upstream, and the server answers the next request",
    async (c) => {
      const upstreamBefore = gemini.requests.length + xai.requests.length;
      const res = await t.gw.request(c.path, {
        method: c.method,
        headers: { "X-API-Key": t.key, ...(c.body ? { "content-type": "application/json" } : {}) },
        body: c.body,
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toContain(`${c.field}: `);
      expect(body.error).toMatch(/NUL character or an unpaired surrogate/);
      expect(gemini.requests.length + xai.requests.length).toBe(upstreamBefore);
      // A video started upstream and never recorded would be orphaned: no task may exist.
      expect(await t.gw.rt.db.prisma.task.count({ where: { ownerKeyId: t.keyId } })).toBe(0);
      expect((await t.get("/v1/key")).status).toBe(200);
    },
  );

  it("still accepts paired surrogates (emoji) and ordinary control characters", async () => {
    const res = await t.gw.request("/v1/documents/generate", {
      method: "POST",
      headers: { "X-API-Key": t.key, "content-type": "application/json" },
      body: `{"title":"Report \\ud83d\\ude00","content":"tab\\there","format":"markdown"}`,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("filename*=UTF-8''Report%20%F0%9F%98%80.md");
  });

  it("records a video task before Veo starts the video, and marks it failed when Veo refuses", async () => {
    const other = await t.gw.key();
    process.env.GEMINI_API_KEY = "a-key-gemini-refuses";
    try {
      const res = await t.gw.request("/v1/llm/video/generate", {
        method: "POST",
        headers: { "X-API-Key": other.key, "content-type": "application/json" },
        body: JSON.stringify({ prompt: "a paper boat" }),
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
    } finally {
      process.env.GEMINI_API_KEY = "g-key";
    }
    const tasks = await t.gw.rt.db.prisma.task.findMany({ where: { ownerKeyId: other.id } });
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ kind: "llm.video", status: "failed" });
    expect(tasks[0]!.error).toBeTruthy();
  });

  it("meters a call whose provider reports token counts the database cannot hold, without those counts", async () => {
    const other = await t.gw.key();
    const headers = { "X-API-Key": other.key, "content-type": "application/json" };
    const res = await t.gw.request("/v1/llm/chat", {
      method: "POST",
      headers,
      body: `{"provider":"mistral","messages":[{"role":"user","content":"hi"}]}`,
    });
    expect(res.status).toBe(200);
    await t.gw.request("/v1/key", { headers });
    await t.gw.rt.meter.flush();
    const usage = await (await t.gw.request("/v1/usage", { headers })).json();
    expect(usage.today.requests).toBe(2);
    expect(usage.by_route.map((r: { route: string }) => r.route)).toContain("/v1/llm/chat");
    const [event] = await t.gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: other.id, route: "/v1/llm/chat" } });
    expect(event).toMatchObject({ provider: "mistral", promptTokens: null, completionTokens: null });
  });
});
