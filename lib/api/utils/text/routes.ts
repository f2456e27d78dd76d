import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { completeChat } from "../../../llm/chat.ts";
import { chatRoute } from "../../../llm/compat/routed.ts";
import { providerRouteModel } from "../../../llm/llm-route-models.ts";
import { providerErrors } from "../../../llm/route-schemas.ts";
import { modelRouter } from "../../../llm/routing/runtime-router.ts";
import { completionUsage } from "../../../llm/usage-report.ts";
import { CHUNK_CHARS, summarize } from "./summarize.ts";
import { SUMMARY_STYLES } from "./word-limit.ts";

// ~50,000 tokens: about 17 parts of CHUNK_CHARS, summarised 4 at a time, then combined.
const MAX_TEXT = 200_000;
const MAX_WORDS = { min: 10, max: 2000 };

const SummarizeBody = z.object({
  text: z
    .string()
    .max(MAX_TEXT, `text is limited to ${MAX_TEXT.toLocaleString("en-US")} characters`)
    .regex(/\S/, "text must not be blank"),
  max_words: z.number().int().min(MAX_WORDS.min).max(MAX_WORDS.max).default(150),
  style: z.enum(SUMMARY_STYLES).default("paragraph"),
  provider: z.string().max(40).optional().openapi({ description: "Default xai" }),
});

const summarizeRoute = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/text/summarize",
  summary: "Summarise text within max_words, as a paragraph or bullets (long texts in parts, then combined)",
  description:
    "Answers `{summary, style, max_words, word_count, chunks, provider, model}`. A model that overshoots " +
    "max_words is cut at a sentence boundary (bullet style: whole bullets are dropped); bullets come as " +
    `"- " lines. A text over ${CHUNK_CHARS.toLocaleString("en-US")} characters is split at paragraphs and ` +
    "sentences into parts (`chunks`), each part summarised, then the part summaries combined; the tokens " +
    "of every call are metered.",
  tags: ["Utilities"],
  request: jsonRequest(SummarizeBody),
  responses: {
    200: jsonResponse(
      z
        .object({
          summary: z.string(),
          style: z.enum(SUMMARY_STYLES),
          max_words: z.number().int(),
          word_count: z.number().int(),
          chunks: z.number().int(),
          provider: z.string(),
          model: z.string(),
        })
        .openapi("Summary"),
      "The summary",
    ),
    ...keyedErrors,
    ...providerErrors,
  },
});

/** `provider` may name an alias; each model call (a part, the combination) is routed on its own. */
const handleSummarize: Handler<typeof summarizeRoute> = async (c, { body }) => {
  const routed = providerRouteModel(await modelRouter(c.runtime), body.provider);
  const result = await summarize({
    text: body.text,
    maxWords: body.max_words,
    style: body.style,
    complete: async (req) => (await chatRoute(c, routed, c.requestId)).whole((d, stop) => completeChat(req, stop, d)),
    signal: c.signal,
  });
  c.report(completionUsage(result));
  const { summary, word_count, chunks, provider, model } = result;
  return { summary, style: body.style, max_words: body.max_words, word_count, chunks, provider, model };
};

export const textRoutes: RouteDef[] = [route(summarizeRoute, handleSummarize)];
