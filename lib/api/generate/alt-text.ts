import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { providerErrors } from "../../llm/route-schemas.ts";
import { completionUsage } from "../../llm/usage-report.ts";
import { describeImage, imageBytes } from "../../llm/vision.ts";

const STYLES = ["concise", "detailed", "functional"] as const;
type Style = (typeof STYLES)[number];

/** Concise alt text fits what screen readers read in one go (the common ≈125-character guidance). */
export const CONCISE_MAX = 125;

const ASK: Record<Style, string> = {
  concise: `Write alt text for this image: one sentence of at most ${CONCISE_MAX} characters saying what matters in it.`,
  detailed:
    "Write a detailed description of this image for someone who cannot see it: two to four sentences covering " +
    "the subject, setting, notable details and any text shown.",
  functional:
    "Write functional alt text for this image: say what it does or conveys where it is used (for a link or button, " +
    "the action or destination), not what it looks like; one short sentence.",
};

/** The instruction to the vision model for a style and the page context, if any. */
export function altTextPrompt(style: Style, context?: string): string {
  return (
    `${ASK[style]}${context ? `\nThe image appears in this context: ${context}` : ""}\n` +
    'Do not start with "Image of" or "Picture of". Answer with the alt text only, no quotes or labels.'
  );
}

/** The model's answer as alt text: no label or quotes around it; concise text capped at a word boundary. */
export function cleanAltText(answer: string, style: Style): string {
  const text = answer
    .trim()
    .replace(/^alt(?:ernative)?[ -]?text\s*:\s*/i, "")
    .replace(/^["'“]+|["'”]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return style === "concise" ? capAtWord(text, CONCISE_MAX) : text;
}

/** At most `max` characters, cut after the last whole word that fits (or mid-word when one word is longer). */
export function capAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1).lastIndexOf(" ");
  return (cut > 0 ? text.slice(0, cut) : text.slice(0, max)).replace(/[\s,;:–—-]+$/, "");
}

const Body = z.object({
  image: z
    .string()
    .min(1)
    .max(20_000_000)
    .openapi({ description: "base64 or data: URL (PNG, JPEG, GIF, WebP), or a public https URL the gateway fetches" }),
  context: z.string().trim().max(2000).optional().openapi({ description: "where the image is used" }),
  style: z
    .enum(STYLES)
    .default("concise")
    .openapi({ description: `concise: at most ${CONCISE_MAX} characters` }),
  provider: z.string().max(50).default("openai").openapi({ description: "a vision-capable provider; default openai" }),
});

const Result = z.object({ alt_text: z.string(), style: z.enum(STYLES), provider: z.string(), model: z.string() });

const altText = gatewayRoute("key", {
  method: "post",
  path: "/v1/generate/alt-text",
  summary: "Alt text for an image (base64 or a public https URL), concise, detailed or functional",
  tags: ["Generate"],
  request: jsonRequest(Body),
  responses: { 200: jsonResponse(Result, "The alt text"), ...keyedErrors, ...providerErrors },
});

const handle: Handler<typeof altText> = async (c, { body }) => {
  const signal = c.signal;
  const image = await imageBytes(c.runtime, body.image, signal, "alt text");
  const answer = await describeImage(image, altTextPrompt(body.style, body.context), body.provider, undefined, signal);
  c.report(completionUsage(answer));
  const text = cleanAltText(answer.content, body.style);
  if (!text) throw new GatewayError(502, `${answer.provider} answered no alt text`);
  return { alt_text: text, style: body.style, provider: answer.provider, model: answer.model };
};

export const altTextRoutes: RouteDef[] = [route(altText, handle)];
