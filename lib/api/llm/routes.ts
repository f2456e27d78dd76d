import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { DEFAULT_PROVIDER, isConfigured, PROVIDERS } from "../../upstream/llm-catalogue.ts";
import { completeChat, streamChat, withFallback, type ChatRequest } from "./chat.ts";
import { cosine, EMBEDDING_PROVIDERS, embedTexts } from "./embeddings.ts";
import { BATCH_KIND, createBatch, describeBatch, type BatchItemResult } from "./batch.ts";
import { executeCode, groundedChat, GROUNDING_MODEL_DEFAULT, pollVideo, startVideo } from "./gemini.ts";
import { videoParameters } from "./video-params.ts";
import { generateImage, transcribe, TRANSCRIBE_FORMATS } from "./media.ts";
import { describeImage } from "./vision.ts";
import { elevenlabsSpeech, openaiSpeech } from "../../upstream/speech.ts";
import { configuredProvider as configuredProviderOrThrow } from "./models.ts";
import { selectModel } from "./tiers.ts";

const Message = z.object({ role: z.enum(["user", "assistant", "system"]), content: z.string() }).openapi("Message");
const Budget = z.enum(["cheap", "balanced", "premium"]);

const ChatBody = z.object({
  messages: z.array(Message).min(1).max(500),
  provider: z.string().optional().openapi({ description: "Default xai" }),
  model: z.string().max(200).optional(),
  max_tokens: z.number().int().min(1).max(200_000).optional(),
  temperature: z.number().min(0).max(2).optional(),
  stream: z.boolean().default(false),
  effort: z.enum(["low", "medium", "high"]).optional().openapi({ description: "anthropic only" }),
  extended_thinking: z.boolean().optional().openapi({ description: "anthropic only" }),
  thinking: z
    .union([
      z.object({ type: z.literal("adaptive") }),
      z.object({ type: z.literal("enabled"), budget_tokens: z.number().int().min(1024) }),
    ])
    .optional()
    .openapi({ description: "anthropic only" }),
  inference_geo: z.literal("us").optional().openapi({ description: "anthropic only; US routing at 1.1x pricing" }),
  fallback: z
    .array(z.string())
    .max(5)
    .optional()
    .openapi({ description: "Providers tried in order when the provider fails (5xx, 429, timeout)" }),
});

const UsageSchema = z
  .object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() })
  .openapi("Usage");
const Completion = z
  .object({ content: z.string(), model: z.string(), provider: z.string(), usage: UsageSchema })
  .openapi("CompletionResponse");
const SelectionSchema = z
  .object({ provider: z.string(), model: z.string(), tier: Budget, configured: z.boolean(), reason: z.string() })
  .openapi("ModelSelection");
const providerErrors = {
  502: jsonResponse(ErrorSchema, "The provider failed or rejected the gateway's credentials"),
  503: jsonResponse(ErrorSchema, "The provider is not configured, or is rate limiting the gateway"),
  504: jsonResponse(ErrorSchema, "The provider did not answer in time"),
};

const chat = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/chat",
  summary: "Chat with a language model (stream with stream: true or ?stream=true)",
  tags: ["LLM"],
  request: { query: z.object({ stream: z.enum(["true", "false"]).optional() }), ...jsonRequest(ChatBody) },
  responses: {
    200: {
      description: "The completion, or text/event-stream of {content} deltas ending with {done: true}",
      content: { "application/json": { schema: Completion }, "text/event-stream": { schema: z.string() } },
    },
    ...keyedErrors,
    ...providerErrors,
  },
});

const models = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/models",
  summary: "Models the gateway picks by default and per tier, for configured providers",
  tags: ["LLM"],
  request: { query: z.object({ provider: z.string().optional() }) },
  responses: {
    200: jsonResponse(
      z.object({
        models: z.array(
          z.object({ id: z.string(), provider: z.string(), tiers: z.array(Budget), default: z.boolean() }),
        ),
      }),
      "Models",
    ),
    ...keyedErrors,
  },
});

const TieredBody = z.object({
  task: z.string().min(1).max(20_000),
  budget: Budget.optional(),
  budget_tier: Budget.optional().openapi({ description: "Form B name for budget" }),
  provider: z.string().optional().openapi({ description: "Form B" }),
});

const tieredSelect = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/tiered-select",
  summary: "Pick a provider and model for a task and budget (documented rule, no model call)",
  tags: ["LLM"],
  request: jsonRequest(TieredBody),
  responses: { 200: jsonResponse(SelectionSchema, "The choice and why"), ...keyedErrors },
});

const smartChat = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/smart-chat",
  summary: "Chat with the model tiered-select picks for the budget",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({
      messages: z.array(Message).min(1).max(500),
      budget: Budget.default("balanced"),
      max_tokens: z.number().int().min(1).max(200_000).optional(),
    }),
  ),
  responses: {
    200: jsonResponse(Completion.extend({ selection: SelectionSchema }), "The completion and the selection behind it"),
    ...keyedErrors,
    ...providerErrors,
  },
});

const EmbedProvider = z.enum(EMBEDDING_PROVIDERS).default("openai");
const EmbeddingSchema = z
  .object({ embedding: z.array(z.number()), dimensions: z.number().int(), model: z.string() })
  .openapi("Embedding");
const EmbeddingsSchema = z
  .object({
    embeddings: z.array(z.array(z.number())),
    count: z.number().int(),
    dimensions: z.number().int(),
    model: z.string(),
  })
  .openapi("Embeddings");
const Text = z.string().min(1).max(100_000);

const embed = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/embed",
  summary: "Embed a text (or, Form B, an array of texts)",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({
      text: z.union([Text, z.array(Text).min(1).max(2048)]),
      provider: EmbedProvider,
      model: z.string().max(200).optional(),
    }),
  ),
  responses: {
    200: jsonResponse(z.union([EmbeddingSchema, EmbeddingsSchema]), "One embedding, or one per text"),
    ...keyedErrors,
    ...providerErrors,
  },
});

const embedBatch = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/embed-batch",
  summary: "Embed many texts",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({ texts: z.array(Text).min(1).max(2048), provider: EmbedProvider, model: z.string().max(200).optional() }),
  ),
  responses: {
    200: jsonResponse(EmbeddingsSchema, "One embedding per text, in order"),
    ...keyedErrors,
    ...providerErrors,
  },
});

const similarity = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/similarity",
  summary: "Semantic similarity of two texts (cosine of their embeddings, floored at 0)",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({ text1: Text, text2: Text, provider: EmbedProvider, model: z.string().max(200).optional() }),
  ),
  responses: {
    200: jsonResponse(
      z.object({
        similarity: z.number().min(0).max(1),
        text1_tokens: z.number().int(),
        text2_tokens: z.number().int(),
        model: z.string(),
      }),
      "Similarity in 0..1",
    ),
    ...keyedErrors,
    ...providerErrors,
  },
});

const vision = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/vision",
  summary: "Ask a vision model about an image (base64 or https URL)",
  tags: ["LLM"],
  request: jsonRequest(
    z
      .object({
        image: z.string().min(1).optional(),
        image_url: z.string().min(1).optional().openapi({ description: "alias of image" }),
        prompt: z.string().min(1).max(20_000).default("Describe the image."),
        provider: z.string().default("openai"),
        model: z.string().max(200).optional(),
      })
      .refine((b) => b.image ?? b.image_url, { message: "image (or image_url) is required", path: ["image"] }),
  ),
  responses: { 200: jsonResponse(Completion, "The model's answer"), ...keyedErrors, ...providerErrors },
});

const imagesGenerate = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/images/generate",
  summary: "Generate an image from a prompt",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({
      prompt: z.string().min(1).max(4000),
      provider: z.literal("openai").default("openai"),
      model: z.string().max(100).default("dall-e-3"),
      quality: z.enum(["standard", "hd"]).default("standard"),
      size: z
        .enum(["256x256", "512x512", "1024x1024", "1792x1024", "1024x1792", "1536x1024", "1024x1536"])
        .default("1024x1024"),
    }),
  ),
  responses: {
    200: jsonResponse(
      z.object({
        url: z.string().nullable(),
        b64_json: z.string().nullable(),
        model: z.string(),
        revised_prompt: z.string().nullable(),
      }),
      "The image",
    ),
    ...keyedErrors,
    ...providerErrors,
  },
});

const speech = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/speech",
  summary: "Speech from text (Form A: OpenAI voices; Form B: provider elevenlabs or openai)",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({
      text: z.string().min(1).max(4096),
      model: z.string().max(100).optional().openapi({ description: "Form A, default tts-1" }),
      voice: z
        .string()
        .max(100)
        .optional()
        .openapi({ description: "openai: alloy … shimmer; elevenlabs: a voice id or name" }),
      speed: z.number().min(0.25).max(4).default(1),
      provider: z
        .enum(["openai", "elevenlabs"])
        .optional()
        .openapi({ description: "Form B; default elevenlabs when Form B" }),
    }),
  ),
  responses: {
    200: { description: "MP3 audio", content: { "audio/mpeg": { schema: z.string().openapi({ format: "binary" }) } } },
    ...keyedErrors,
    ...providerErrors,
  },
});

const transcribeRoute = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/transcribe",
  summary: "Transcribe audio (multipart: file, language, prompt)",
  tags: ["LLM"],
  request: {
    body: {
      content: {
        "multipart/form-data": {
          schema: z.object({
            file: z.any().openapi({ type: "string", format: "binary", description: TRANSCRIBE_FORMATS.join(", ") }),
            language: z
              .string()
              .regex(/^[a-z]{2}$/, "language must be an ISO 639-1 code")
              .optional(),
            prompt: z.string().max(2000).optional(),
          }),
        },
      },
      required: true,
    },
  },
  responses: {
    200: jsonResponse(
      z.object({ text: z.string(), language: z.string().nullable(), duration: z.number().nullable() }),
      "The transcript",
    ),
    ...keyedErrors,
    ...providerErrors,
  },
});

const BatchBody = z.object({
  requests: z
    .array(z.object({ custom_id: z.string().min(1).max(64), messages: z.array(Message).min(1).max(100) }))
    .min(1)
    .max(1000)
    .refine((r) => new Set(r.map((x) => x.custom_id)).size === r.length, "custom_id values must be unique"),
  provider: z.string().optional(),
  model: z.string().max(200).optional(),
  max_tokens: z.number().int().min(1).max(200_000).default(1024),
});
const BatchSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    provider: z.string().nullable(),
    model: z.string().nullable(),
    request_counts: z.object({
      total: z.number().int(),
      succeeded: z.number().int(),
      errored: z.number().int(),
      processing: z.number().int(),
    }),
    progress: z.number(),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    error: z.string().nullable(),
  })
  .openapi("Batch");
const batchCreateConfig = (path: string) =>
  gatewayRoute("key", {
    method: "post",
    path,
    summary: "Create a batch of chat requests, run in the background",
    tags: ["LLM"],
    request: jsonRequest(BatchBody),
    responses: { 201: jsonResponse(BatchSchema, "The batch, queued"), ...keyedErrors, ...providerErrors },
  });
const batchCreate = batchCreateConfig("/v1/llm/batch");
const batchCreateFormB = batchCreateConfig("/v1/llm/batch/create");
const batchList = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/batch",
  summary: "This key's batches, newest first",
  tags: ["LLM"],
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }) },
  responses: {
    200: jsonResponse(z.object({ batches: z.array(BatchSchema), count: z.number().int() }), "Batches"),
    ...keyedErrors,
  },
});
const batchGet = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/batch/{batch_id}",
  summary: "A batch's status",
  tags: ["LLM"],
  request: { params: z.object({ batch_id: z.string().min(1).max(100) }) },
  responses: {
    200: jsonResponse(BatchSchema, "The batch"),
    ...keyedErrors,
    404: jsonResponse(ErrorSchema, "No such batch for this key"),
  },
});
const batchResults = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/batch/{batch_id}/results",
  summary: "A finished batch's results, in request order",
  tags: ["LLM"],
  request: { params: z.object({ batch_id: z.string().min(1).max(100) }) },
  responses: {
    200: jsonResponse(
      z.object({
        id: z.string(),
        status: z.literal("processing_complete"),
        results: z.array(z.record(z.string(), z.unknown())),
      }),
      "Results",
    ),
    ...keyedErrors,
    404: jsonResponse(ErrorSchema, "No such batch for this key"),
    409: jsonResponse(ErrorSchema, "Not finished yet: the message gives the status"),
  },
});

const grounded = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/grounded-chat",
  summary: "Gemini answer grounded in Google Search, with its sources and queries",
  tags: ["LLM"],
  request: jsonRequest(
    z
      .object({
        messages: z.array(Message).min(1).max(500).optional(),
        prompt: z.string().min(1).max(50_000).optional(),
        model: z.string().max(200).default(GROUNDING_MODEL_DEFAULT),
        dynamic_threshold: z.number().min(0).max(1).default(0.3),
      })
      .refine((b) => b.messages ?? b.prompt, { message: "messages or prompt is required", path: ["messages"] }),
  ),
  responses: {
    200: jsonResponse(
      z.object({
        content: z.string(),
        grounding_sources: z.array(z.object({ title: z.string(), uri: z.string() })),
        search_queries: z.array(z.string()),
        model: z.string(),
      }),
      "The grounded answer",
    ),
    ...keyedErrors,
    ...providerErrors,
  },
});

const codeExecute = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/code-execute",
  summary: "Let Gemini write and run code for a task",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({ prompt: z.string().min(1).max(50_000), model: z.string().max(200).default(GROUNDING_MODEL_DEFAULT) }),
  ),
  responses: {
    200: jsonResponse(
      z.object({
        code: z.string(),
        output: z.string(),
        chart: z.string().nullable(),
        content: z.string(),
        model: z.string(),
      }),
      "Code, output, and a PNG chart when one was drawn",
    ),
    ...keyedErrors,
    ...providerErrors,
  },
});

const VIDEO_KIND = "llm.video";
const VideoTask = z.object({
  task_id: z.string(),
  status: z.string(),
  video_url: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  model: z.string().optional(),
  aspect_ratio: z.string().optional(),
  duration_seconds: z
    .number()
    .int()
    .optional()
    .openapi({ description: "The length Veo was asked for, after mapping the requested duration" }),
});
const videoGenerate = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/video/generate",
  summary: "Start a video (Google Veo); poll GET /v1/llm/video/{task_id}",
  tags: ["LLM"],
  request: jsonRequest(
    z.object({
      prompt: z.string().min(1).max(5000),
      aspect_ratio: z
        .string()
        .max(20)
        .default("16:9")
        .openapi({ description: "16:9 (default) or 9:16; Veo makes no 1:1" }),
      duration: z
        .number()
        .int()
        .min(1)
        .max(60)
        .default(5)
        .openapi({ description: "Seconds: 5 (default) or 10, made as 6 and 8 by Veo 3; or Veo 3's own 4, 6, 8" }),
    }),
  ),
  responses: { 202: jsonResponse(VideoTask, "Accepted: pending"), ...keyedErrors, ...providerErrors },
});
const videoStatus = gatewayRoute("key", {
  method: "get",
  path: "/v1/llm/video/{task_id}",
  summary: "A video task's status, and the video URL when done",
  tags: ["LLM"],
  request: { params: z.object({ task_id: z.string().min(1).max(100) }) },
  responses: {
    200: jsonResponse(VideoTask, "Status"),
    ...keyedErrors,
    404: jsonResponse(ErrorSchema, "No such task for this key"),
  },
});

export function registerLlmRoutes(app: OpenAPIHono<GatewayEnv>): void {
  app.openapi(grounded, async (c) => {
    const body = c.req.valid("json");
    const messages = body.messages ?? [{ role: "user" as const, content: body.prompt! }];
    const r = await groundedChat(messages, body.model, body.dynamic_threshold);
    c.set("usage", {
      provider: "gemini",
      model: r.model,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
    });
    return c.json(
      { content: r.content, grounding_sources: r.grounding_sources, search_queries: r.search_queries, model: r.model },
      200,
    );
  });

  app.openapi(codeExecute, async (c) => {
    const body = c.req.valid("json");
    const r = await executeCode(body.prompt, body.model);
    c.set("usage", {
      provider: "gemini",
      model: r.model,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
    });
    return c.json({ code: r.code, output: r.output, chart: r.chart, content: r.content, model: r.model }, 200);
  });

  app.openapi(videoGenerate, async (c) => {
    const body = c.req.valid("json");
    const rt = c.var.runtime;
    const keyId = c.var.key!.id;
    const video = videoParameters(body.aspect_ratio, body.duration);
    const pollMs = Number(process.env.VIDEO_POLL_MS ?? 10_000);
    let operation = "";
    // Runs inside the submission, after the key's queue quota: the task is recorded before Veo starts
    // (and bills) the video, so a failed save cannot orphan one; a refusal (unconfigured, bad prompt)
    // is this request's error as well as the task's.
    const start = async () => {
      const task = await rt.tasks.create(VIDEO_KIND, keyId, body);
      try {
        operation = await startVideo(body.prompt, video.aspectRatio, video.durationSeconds, video.model);
      } catch (err) {
        await rt.tasks.update(task.id, { status: "failed", error: err instanceof Error ? err.message : String(err) });
        throw err;
      }
      return task;
    };
    const task = await rt.runner.submit(keyId, start, async (_t, ctx) => {
      const deadline = Date.now() + 30 * 60_000;
      while (!ctx.signal.aborted && Date.now() < deadline) {
        const poll = await pollVideo(operation);
        if (poll.done) {
          if (poll.error) throw new Error(poll.error);
          return { video_url: poll.videoUrl };
        }
        await new Promise((r) => setTimeout(r, pollMs));
      }
      throw new Error("video generation did not finish within 30 minutes");
    });
    c.set("usage", { provider: "gemini", model: video.model });
    return c.json(
      {
        task_id: task.id,
        status: "pending",
        model: video.model,
        aspect_ratio: video.aspectRatio,
        duration_seconds: video.durationSeconds,
      },
      202,
    );
  });

  app.openapi(videoStatus, async (c) => {
    const task = await c.var.runtime.tasks.getForOwner(c.req.valid("param").task_id, c.var.key!.id);
    if (!task || task.kind !== VIDEO_KIND) throw new GatewayError(404, "no such video task for this key");
    const result = task.result as { video_url?: string | null } | null;
    return c.json(
      { task_id: task.id, status: task.status, video_url: result?.video_url ?? null, error: task.error },
      200,
    );
  });

  const ownBatch = async (c: { var: GatewayEnv["Variables"] }, id: string) => {
    const task = await c.var.runtime.tasks.getForOwner(id, c.var.key!.id);
    if (!task || task.kind !== BATCH_KIND) throw new GatewayError(404, `no batch '${id}' for this key`);
    return task;
  };
  for (const route of [batchCreate, batchCreateFormB]) {
    app.openapi(route, async (c) => {
      const body = c.req.valid("json");
      // Checked now, so a batch for an unconfigured provider fails at once, not item by item.
      configuredProviderOrThrow(body.provider ?? DEFAULT_PROVIDER);
      const task = await createBatch(c.var.runtime, c.var.key!.id, body);
      return c.json(describeBatch(task), 201);
    });
  }
  app.openapi(batchList, async (c) => {
    const tasks = await c.var.runtime.tasks.listForOwner(c.var.key!.id, BATCH_KIND, c.req.valid("query").limit);
    return c.json({ batches: tasks.map(describeBatch), count: tasks.length }, 200);
  });
  app.openapi(batchGet, async (c) => c.json(describeBatch(await ownBatch(c, c.req.valid("param").batch_id)), 200));
  app.openapi(batchResults, async (c) => {
    const task = await ownBatch(c, c.req.valid("param").batch_id);
    const status = describeBatch(task).status;
    if (status !== "processing_complete")
      throw new GatewayError(409, `batch is ${status}; results are ready when it is processing_complete`);
    const results = ((task.result as { results?: BatchItemResult[] }).results ?? []) as BatchItemResult[];
    return c.json({ id: task.id, status: "processing_complete" as const, results }, 200);
  });

  app.openapi(imagesGenerate, async (c) => {
    const body = c.req.valid("json");
    const image = await generateImage(body.prompt, body.model, body.quality, body.size);
    c.set("usage", { provider: "openai", model: image.model });
    return c.json(image, 200);
  });

  app.openapi(speech, async (c) => {
    const body = c.req.valid("json");
    // Form B names a provider (elevenlabs unless openai); Form A is OpenAI with its voices.
    const provider = body.provider ?? "openai";
    const audio =
      provider === "elevenlabs"
        ? await elevenlabsSpeech(body.text, body.voice)
        : await openaiSpeech(body.text, body.voice, body.model ?? "tts-1", body.speed);
    c.set("usage", { provider, model: provider === "openai" ? (body.model ?? "tts-1") : "eleven_multilingual_v2" });
    return c.body(new Uint8Array(audio), 200, { "Content-Type": "audio/mpeg", "Content-Length": String(audio.length) });
  });

  app.openapi(transcribeRoute, async (c) => {
    const form = c.req.valid("form");
    const file = form.file as unknown;
    if (!(file instanceof File)) throw new GatewayError(400, "file is required (multipart/form-data field 'file')");
    const result = await transcribe(file, form.language, form.prompt);
    c.set("usage", { provider: "openai", model: "whisper-1" });
    return c.json(result, 200);
  });

  app.openapi(embed, async (c) => {
    const body = c.req.valid("json");
    const texts = Array.isArray(body.text) ? body.text : [body.text];
    const result = await embedTexts(texts, body.provider, body.model, c.req.raw.signal);
    c.set("usage", { provider: result.provider, model: result.model, promptTokens: result.tokens });
    const dimensions = result.embeddings[0]?.length ?? 0;
    if (Array.isArray(body.text))
      return c.json(
        { embeddings: result.embeddings, count: result.embeddings.length, dimensions, model: result.model },
        200,
      );
    return c.json({ embedding: result.embeddings[0]!, dimensions, model: result.model }, 200);
  });

  app.openapi(embedBatch, async (c) => {
    const body = c.req.valid("json");
    const result = await embedTexts(body.texts, body.provider, body.model, c.req.raw.signal);
    c.set("usage", { provider: result.provider, model: result.model, promptTokens: result.tokens });
    return c.json(
      {
        embeddings: result.embeddings,
        count: result.embeddings.length,
        dimensions: result.embeddings[0]?.length ?? 0,
        model: result.model,
      },
      200,
    );
  });

  app.openapi(similarity, async (c) => {
    const body = c.req.valid("json");
    // Embedded one by one so each text's token count is known.
    const [a, b] = await Promise.all(
      [body.text1, body.text2].map((t) => embedTexts([t], body.provider, body.model, c.req.raw.signal)),
    );
    c.set("usage", { provider: a!.provider, model: a!.model, promptTokens: a!.tokens + b!.tokens });
    const score = Math.max(0, Math.min(1, cosine(a!.embeddings[0]!, b!.embeddings[0]!)));
    return c.json(
      {
        similarity: Math.round(score * 10_000) / 10_000,
        text1_tokens: a!.tokens,
        text2_tokens: b!.tokens,
        model: a!.model,
      },
      200,
    );
  });

  app.openapi(vision, async (c) => {
    const body = c.req.valid("json");
    const result = await describeImage(
      (body.image ?? body.image_url)!,
      body.prompt,
      body.provider,
      body.model,
      c.req.raw.signal,
    );
    c.set("usage", {
      provider: result.provider,
      model: result.model,
      promptTokens: result.usage.prompt_tokens,
      completionTokens: result.usage.completion_tokens,
    });
    return c.json(result, 200);
  });

  app.openapi(chat, async (c) => {
    const body = c.req.valid("json");
    const { stream: streamQuery } = c.req.valid("query");
    const req: ChatRequest = body;
    if (!(body.stream || streamQuery === "true")) {
      const result = await withFallback(req, (r) => completeChat(r, c.req.raw.signal));
      c.set("usage", {
        provider: result.provider,
        model: result.model,
        promptTokens: result.usage.prompt_tokens,
        completionTokens: result.usage.completion_tokens,
      });
      return c.json(result, 200);
    }
    // A stream falls back only before its first token: after that the client already has output.
    const { body: stream, finished } = await withFallback(req, (r) => streamChat(r, c.req.raw.signal));
    c.set(
      "streamDone",
      finished.then((o) => {
        c.set("usage", {
          provider: o.provider,
          model: o.model,
          promptTokens: o.usage.prompt_tokens,
          completionTokens: o.usage.completion_tokens,
          bytesOut: o.bytes,
        });
      }),
    );
    return new Response(stream, {
      status: 200,
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
      },
    }) as never;
  });

  app.openapi(models, (c) => {
    const { provider } = c.req.valid("query");
    if (provider && !PROVIDERS.some((p) => p.name === provider))
      throw new GatewayError(400, `unknown provider '${provider}'`);
    const list = PROVIDERS.filter((p) => isConfigured(p) && (!provider || p.name === provider)).flatMap((p) => {
      const ids = [...new Set([p.defaultModel, ...Object.values(p.tiers)])];
      return ids.map((id) => ({
        id,
        provider: p.name,
        tiers: (Object.keys(p.tiers) as Array<keyof typeof p.tiers>).filter((t) => p.tiers[t] === id),
        default: id === p.defaultModel,
      }));
    });
    return c.json({ models: list }, 200);
  });

  app.openapi(tieredSelect, (c) => {
    const body = c.req.valid("json");
    return c.json(selectModel(body.task, body.budget_tier ?? body.budget ?? "balanced", body.provider), 200);
  });

  app.openapi(smartChat, async (c) => {
    const body = c.req.valid("json");
    const lastUser =
      [...body.messages].reverse().find((m) => m.role === "user")?.content ?? body.messages.at(-1)!.content;
    const selection = selectModel(lastUser, body.budget);
    const result = await completeChat(
      { messages: body.messages, provider: selection.provider, model: selection.model, max_tokens: body.max_tokens },
      c.req.raw.signal,
    );
    c.set("usage", {
      provider: result.provider,
      model: result.model,
      promptTokens: result.usage.prompt_tokens,
      completionTokens: result.usage.completion_tokens,
    });
    return c.json({ ...result, selection }, 200);
  });
}
