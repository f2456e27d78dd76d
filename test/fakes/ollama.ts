import http from "node:http";
import { Hono } from "hono";
import { stream } from "hono/streaming";
import { listen } from "../support/listen.ts";
import { fakeEmbedding } from "./llm.ts";

export type FakeOllama = {
  url: string;
  port: number;
  installed: Set<string>;
  calls: string[];
  /** While set, a pull sends its first progress line and then waits for this promise. */
  pullGate?: Promise<void>;
  close(): Promise<void>;
};

/** A pull of this model is refused with 400 and a body carrying what a private service might leak. */
export const REFUSED_MODEL = "refused-model";
export const LEAKY_ERROR = "internal detail: db password hunter2";

/** Ollama's REST API (version, tags, ps, pull with NDJSON progress, delete, embed) and its OpenAI-compatible chat. */
export async function startFakeOllama(
  models: string[] = ["llama3.2:latest", "nomic-embed-text:latest"],
  hostname = "127.0.0.1",
  port = 0,
): Promise<FakeOllama> {
  const installed = new Set(models);
  const calls: string[] = [];
  const fake: FakeOllama = { url: "", port: 0, installed, calls, close: async () => {} };
  const app = new Hono();
  app.use(async (c, next) => {
    calls.push(`${c.req.method} ${c.req.path}`);
    await next();
  });
  app.get("/api/version", (c) => c.json({ version: "0.12.0" }));
  app.get("/api/tags", (c) =>
    c.json({
      models: [...installed].map((name) => ({
        name,
        model: name,
        modified_at: "2026-11-01T10:00:00Z",
        size: 2_019_393_189,
        digest: "sha256:abc",
        details: { family: "llama", parameter_size: "3.2B", quantization_level: "Q4_K_M" },
      })),
    }),
  );
  app.get("/api/ps", (c) =>
    c.json({
      models: [
        {
          name: "llama3.2:latest",
          model: "llama3.2:latest",
          size: 5_137_025_024,
          size_vram: 5_137_025_024,
          expires_at: "2026-11-26T10:05:00Z",
        },
      ],
    }),
  );
  app.post("/api/pull", async (c) => {
    const { model } = await c.req.json();
    if (model === REFUSED_MODEL) return c.json({ error: LEAKY_ERROR }, 400);
    return stream(c, async (s) => {
      for (const [i, line] of [
        { status: "pulling manifest" },
        { status: "pulling 6a0746a1ec1a", digest: "sha256:6a07", total: 100, completed: 40 },
        { status: "pulling 6a0746a1ec1a", digest: "sha256:6a07", total: 100, completed: 100 },
        { status: "verifying sha256 digest" },
        { status: "success" },
      ].entries()) {
        await s.write(`${JSON.stringify(line)}\n`);
        if (i === 0) await fake.pullGate;
      }
      installed.add(model.includes(":") ? model : `${model}:latest`);
    });
  });
  app.delete("/api/delete", async (c) => {
    const { model } = await c.req.json();
    const name = model.includes(":") ? model : `${model}:latest`;
    if (!installed.delete(name)) return c.json({ error: `model '${model}' not found` }, 404);
    return c.body(null, 200);
  });
  app.post("/api/embed", async (c) => {
    const body = await c.req.json();
    const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
    return c.json({ model: body.model, embeddings: inputs.map(fakeEmbedding), prompt_eval_count: inputs.length * 2 });
  });
  app.post("/v1/chat/completions", async (c) => {
    const body = await c.req.json();
    return c.json({
      id: "chatcmpl-ollama",
      object: "chat.completion",
      created: 1,
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content: "Local hello." }, finish_reason: "stop" }],
      usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
    });
  });
  const server = await listen(app.fetch, { hostname, port });
  Object.assign(fake, { url: server.url, port: server.port, close: server.close });
  return fake;
}

export type HostileRunner = {
  url: string;
  port: number;
  /** Bytes of model list written before the gateway hung up. */
  sent: number;
  close(): Promise<void>;
};

// Where a hostile runner gives up writing on its own, so a gateway that never hangs up cannot run the test forever.
const HOSTILE_MAX_BYTES = 256 * 1024 * 1024;

/** A registered host that is not Ollama: its model list never ends, and its version never comes. */
export async function startHostileRunner(): Promise<HostileRunner> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  const server = http.createServer((req, res) => {
    if (req.url === "/api/version") return;
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"models":[{"name":"');
    const pump = () => {
      while (!res.destroyed && hostile.sent < HOSTILE_MAX_BYTES) {
        hostile.sent += chunk.byteLength;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  const listening = await listen(server);
  const hostile: HostileRunner = { url: listening.url, port: listening.port, sent: 0, close: listening.close };
  return hostile;
}
