import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../../errors.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { Reply } from "../../../gateway/pipeline/answer.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { elevenlabsSpeech, openaiSpeech } from "../../../upstream/speech.ts";
import { generateImage, transcribe, TRANSCRIBE_FORMATS } from "../media.ts";
import { describeImage, imageBytes } from "../../../llm/vision.ts";
import { Completion, providerErrors } from "../../../llm/route-schemas.ts";
import { completionUsage } from "../../../llm/usage-report.ts";

const vision = gatewayRoute("key", {
  method: "post",
  path: "/v1/llm/vision",
  summary: "Ask a vision model about an image (base64, or an https URL the gateway fetches)",
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

const handleVision: Handler<typeof vision> = async (c, { body }) => {
  const signal = c.signal;
  const image = await imageBytes(c.runtime, (body.image ?? body.image_url)!, signal, "vision");
  const result = await describeImage(image, body.prompt, body.provider, body.model, signal);
  c.report(completionUsage(result));
  return result;
};

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

const handleImagesGenerate: Handler<typeof imagesGenerate> = async (c, { body }) => {
  const image = await generateImage(body.prompt, body.model, body.quality, body.size);
  c.report({ provider: "openai", model: image.model });
  return image;
};

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

const handleSpeech: Handler<typeof speech> = async (c, { body }) => {
  // Form B names a provider (elevenlabs unless openai); Form A is OpenAI with its voices.
  const provider = body.provider ?? "openai";
  const audio =
    provider === "elevenlabs"
      ? await elevenlabsSpeech(body.text, body.voice)
      : await openaiSpeech(body.text, body.voice, body.model ?? "tts-1", body.speed);
  c.report({ provider, model: provider === "openai" ? (body.model ?? "tts-1") : "eleven_multilingual_v2" });
  return Reply.bytes(audio, "audio/mpeg");
};

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

const handleTranscribe: Handler<typeof transcribeRoute> = async (c, { body: form }) => {
  const file = form.file as unknown;
  if (!(file instanceof File)) throw new GatewayError(400, "file is required (multipart/form-data field 'file')");
  const result = await transcribe(file, form.language, form.prompt);
  c.report({ provider: "openai", model: "whisper-1" });
  return result;
};

/** Images in and out, speech in and out. */
export const mediaRoutes: RouteDef[] = [
  route(vision, handleVision),
  route(imagesGenerate, handleImagesGenerate),
  route(speech, handleSpeech),
  route(transcribeRoute, handleTranscribe),
];
