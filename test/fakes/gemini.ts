import { Hono } from "hono";
import { listen } from "../support/listen.ts";

export type FakeGemini = {
  url: string;
  requests: Array<{ path: string; body: Record<string, unknown> }>;
  close(): Promise<void>;
};

// A 1×1 PNG, as Gemini returns charts inline.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** Gemini API v1beta: models/{model}:generateContent (search grounding, code execution) and Veo's long-running operations. */
export async function startFakeGemini(key: string): Promise<FakeGemini> {
  const requests: FakeGemini["requests"] = [];
  const polls = new Map<string, number>();
  const app = new Hono();
  app.use(async (c, next) => {
    if (c.req.header("x-goog-api-key") !== key)
      return c.json({ error: { code: 403, message: "API key not valid.", status: "PERMISSION_DENIED" } }, 403);
    await next();
  });
  app.post("/v1beta/models/:call", async (c) => {
    const body = await c.req.json();
    requests.push({ path: c.req.path, body });
    const call = c.req.param("call");
    if (call.endsWith(":predictLongRunning")) {
      // Veo refuses what its model page does not list (Veo 3: 4, 6 or 8 s; Veo 2: 5–8 s; both 16:9 or 9:16).
      const model = call.split(":")[0]!;
      const { durationSeconds, aspectRatio } = body.parameters ?? {};
      const durations = model.startsWith("veo-2") ? [5, 6, 7, 8] : [4, 6, 8];
      if (!durations.includes(durationSeconds) || !["16:9", "9:16"].includes(aspectRatio)) {
        return c.json(
          { error: { code: 400, message: `Unsupported parameters for ${model}.`, status: "INVALID_ARGUMENT" } },
          400,
        );
      }
      return c.json({ name: `operations/${model}-op1` });
    }
    const tools = JSON.stringify(body.tools ?? []);
    const usageMetadata = { promptTokenCount: 11, candidatesTokenCount: 22, totalTokenCount: 33 };
    if (tools.includes("code_execution")) {
      return c.json({
        candidates: [
          {
            content: {
              role: "model",
              parts: [
                { text: "I'll compute it." },
                { executableCode: { language: "PYTHON", code: "print(sum(range(10)))" } },
                { codeExecutionResult: { outcome: "OUTCOME_OK", output: "45\n" } },
                { inlineData: { mimeType: "image/png", data: PNG } },
                { text: "The sum is 45." },
              ],
            },
          },
        ],
        usageMetadata,
      });
    }
    return c.json({
      candidates: [
        {
          content: { role: "model", parts: [{ text: "Paris hosted the 2024 Olympics." }] },
          groundingMetadata: {
            webSearchQueries: ["2024 olympics host city"],
            groundingChunks: [
              { web: { uri: "https://example.org/olympics", title: "example.org" } },
              { web: { uri: "https://example.org/olympics", title: "example.org" } },
              { web: { uri: "https://news.example/paris", title: "news.example" } },
            ],
          },
        },
      ],
      usageMetadata,
    });
  });
  app.get("/v1beta/operations/:op", (c) => {
    const op = c.req.param("op");
    const n = (polls.get(op) ?? 0) + 1;
    polls.set(op, n);
    if (n < 2) return c.json({ name: `operations/${op}`, done: false });
    return c.json({
      name: `operations/${op}`,
      done: true,
      response: {
        generateVideoResponse: { generatedSamples: [{ video: { uri: `https://videos.example/${op}.mp4` } }] },
      },
    });
  });
  const { url, close } = await listen(app.fetch);
  return { url, requests, close };
}
