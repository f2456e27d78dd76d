import { z, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { poolErrors, runOnPool } from "../../gateway/runtime/worker-pool.ts";
import * as pool from "./pool-tasks.ts";
import {
  blankAsAbsent,
  ErrorSchema,
  jsonRequest,
  jsonResponse,
  keyedErrors,
  RateLimitErrorSchema,
} from "../../gateway/http/schemas.ts";
import { decodeBase64 } from "./base64.ts";
import {
  CITATION_STYLES,
  CONVERT_FORMATS,
  DATA_FORMATS,
  MAX_OUTPUT_PIXELS,
  MAX_OUTPUT_SIDE,
  MAX_PDF_PAGES,
  RESIZE_FORMATS,
  TEXT_FORMATS,
} from "./formats.ts";
import type { ImageFormat } from "./images.ts";
import { assertNestingAllowed } from "./nesting-depth.ts";
import {
  IMAGE_HEADERS,
  IMAGE_INPUT_TYPES,
  IMAGE_OUTPUT_TYPES,
  imageAnswer,
  jsonOrRawRequest,
  negotiateImage,
  queryBoolean,
  queryInt,
  queryIntList,
  rawBodyForm,
  rawOptions,
} from "./raw-body.ts";

const openErrors = {
  400: jsonResponse(ErrorSchema, "Invalid parameters"),
  429: jsonResponse(RateLimitErrorSchema, "Too many requests from this client address"),
};
// Keyless routes take text up to this size: keywords cost ~2 s of CPU per 100 kB on one core.
const MAX_TEXT = 100_000;
const text = (field: string) =>
  z.string().max(MAX_TEXT, `${field} is limited to ${MAX_TEXT.toLocaleString("en-US")} characters`);

const year = z.union([z.number().int(), z.string().regex(/^\d{1,4}$/)]);
const CitationBody = z
  .object({
    source: z
      .object({
        title: z.string().min(1).max(2000),
        author: z.string().max(2000).optional(),
        year: year.optional(),
        url: z.string().url().optional(),
      })
      .optional()
      .openapi({ description: "Form A" }),
    citation: z
      .object({
        title: z.string().min(1).max(2000),
        authors: z.array(z.string().max(300)).max(100).optional(),
        year: year.optional(),
        journal: z.string().max(1000).optional(),
        doi: z.string().max(300).optional(),
        url: z.string().url().optional(),
      })
      .optional()
      .openapi({ description: "Form B" }),
    style: z.enum(CITATION_STYLES).default("apa"),
  })
  .refine((b) => Boolean(b.source) !== Boolean(b.citation), {
    message: "give either source (Form A) or citation (Form B)",
    path: ["source"],
  });

const citations = gatewayRoute(
  "none",
  {
    method: "post",
    path: "/v1/utils/citations/format",
    summary: "Format a citation in APA, MLA, Chicago, Harvard (CSL styles) or BibTeX",
    tags: ["Utilities"],
    request: jsonRequest(CitationBody),
    responses: {
      200: jsonResponse(
        z.object({ citation: z.string(), html: z.string().nullable(), style: z.enum(CITATION_STYLES) }),
        "The formatted reference as text and HTML (BibTeX: text only)",
      ),
      ...openErrors,
    },
  },
  { limitKeyless: true },
);

const handleCitations: RouteHandler<typeof citations, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  // citation-js (~14 MB) loads with the first citation.
  const { formatCitation } = await import("./citations.ts");
  return c.json(formatCitation((body.source ?? body.citation)!, body.style), 200);
};

const ConvertBody = z.object({
  data: z
    .union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .openapi({ description: "Text in source_format, or an already-parsed JSON value" }),
  source_format: z.enum(DATA_FORMATS).default("json"),
  target_format: z.enum(DATA_FORMATS).default("yaml"),
  pretty: z.boolean().default(true),
});

const convert = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/convert",
  summary: "Convert data between JSON, YAML, TOML, XML and CSV",
  tags: ["Utilities"],
  request: jsonRequest(ConvertBody),
  responses: {
    200: jsonResponse(
      z.object({ result: z.string(), source_format: z.string(), target_format: z.string() }),
      "Converted text",
    ),
    ...keyedErrors,
    ...poolErrors,
  },
});

const handleConvert: RouteHandler<typeof convert, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  // On the pool: the YAML parser checks duplicate keys pairwise, so 300,000 keys (3 MB) cost ~15 minutes of CPU.
  assertNestingAllowed(body.data);
  const args = { data: body.data, from: body.source_format, to: body.target_format, pretty: body.pretty };
  const result = await runOnPool(c.get("runtime"), pool.dataConvert, args, "data");
  return c.json({ result, source_format: body.source_format, target_format: body.target_format }, 200);
};

const FormatBody = z.object({
  content: text("content"),
  from_format: z.enum(TEXT_FORMATS).default("markdown"),
  to_format: z.enum(TEXT_FORMATS).default("html"),
});

const format = gatewayRoute(
  "none",
  {
    method: "post",
    path: "/v1/utils/format/convert",
    summary: "Convert text between Markdown, HTML (sanitised) and plain text",
    tags: ["Utilities"],
    request: jsonRequest(FormatBody),
    responses: {
      200: jsonResponse(
        z.object({ result: z.string(), from_format: z.string(), to_format: z.string() }),
        "Converted text",
      ),
      ...openErrors,
      ...poolErrors,
    },
  },
  { limitKeyless: true },
);

const handleFormat: RouteHandler<typeof format, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  // On the pool: marked's emphasis rules are quadratic, so 100 kB of `_a**` costs ~45 s of CPU.
  const result = await runOnPool(
    c.get("runtime"),
    pool.formatConvert,
    { content: body.content, from: body.from_format, to: body.to_format },
    "content",
  );
  return c.json({ result, from_format: body.from_format, to_format: body.to_format }, 200);
};

const KeywordsBody = z.object({
  text: text("text"),
  top_k: z.number().int().min(1).max(100).default(10),
});

const keywordsRoute = gatewayRoute(
  "none",
  {
    method: "post",
    path: "/v1/utils/text/keywords",
    summary: "Extract keywords and key phrases (RAKE over lemmas, stop words removed)",
    tags: ["Utilities"],
    request: jsonRequest(KeywordsBody),
    responses: {
      200: jsonResponse(
        z.object({
          keywords: z.array(z.object({ keyword: z.string(), score: z.number(), count: z.number().int() })),
          count: z.number().int(),
          algorithm: z.string(),
        }),
        "Keywords, best first, scores scaled to 0..1",
      ),
      ...openErrors,
      ...poolErrors,
    },
  },
  { limitKeyless: true },
);

const handleKeywords: RouteHandler<typeof keywordsRoute, GatewayEnv> = async (c) => {
  const body = c.req.valid("json");
  const keywords = await runOnPool(c.get("runtime"), pool.keywords, { text: body.text, topK: body.top_k }, "text");
  return c.json({ keywords, count: keywords.length, algorithm: "rake" }, 200);
};

const ImageResult = z
  .object({
    image: z.string(),
    format: z.enum(CONVERT_FORMATS),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int(),
  })
  .openapi("ImageResult");
const side = z.number().int().min(1).max(MAX_OUTPUT_SIDE);
const rawImage = `The image itself (${IMAGE_INPUT_TYPES.join(", ")}), with the options as query parameters`;
const unsupportedType = (what: string) => ({
  415: jsonResponse(ErrorSchema, `Content-Type is neither application/json nor a raw ${what} type listed here`),
});

/** 200 of an image route: JSON (base64) by default, the bytes when Accept prefers an image type. */
const binary = z.string().openapi({ format: "binary" });
const imageAnswers = <F extends ImageFormat>(formats: readonly F[], description: string) => ({
  description: `${description}: JSON with the image as base64, or the image's bytes when Accept prefers image/* or the format's type (inline, nosniff, the JSON's fields in X-Image-* headers)`,
  headers: Object.fromEntries(
    Object.entries(IMAGE_HEADERS).map(([name, what]) => [
      name,
      { description: `Binary answers only: ${what}`, schema: { type: "string" as const } },
    ]),
  ),
  content: {
    "application/json": { schema: ImageResult },
    // Typed by media type, so a handler may answer either form (each format's type is image/<format>).
    ...(Object.fromEntries(formats.map((f) => [IMAGE_OUTPUT_TYPES[f], { schema: binary }])) as {
      [K in F as `image/${K}`]: { schema: typeof binary };
    }),
  },
});

const formatNote = (fallback: string) =>
  `default ${fallback}; when not given, an Accept naming one of these image types chooses it for a binary answer`;
const ResizeBody = z.object({
  image: z.string().openapi({ description: "Base64 image (or a data: URL)" }),
  width: side.optional(),
  height: side.optional(),
  maintain_aspect: z.boolean().default(true),
  format: z
    .enum(RESIZE_FORMATS)
    .optional()
    .openapi({ default: "png", description: formatNote("png") }),
});
const ResizeQuery = z.object({
  width: queryInt(side.optional()),
  height: queryInt(side.optional()),
  maintain_aspect: queryBoolean(true),
  format: blankAsAbsent(z.enum(RESIZE_FORMATS).optional()).openapi({ default: "png", description: formatNote("png") }),
});
type ResizeInput = Omit<z.output<typeof ResizeBody>, "image">;

async function resizeAnswer(c: Context<GatewayEnv>, image: Uint8Array, input: ResizeInput): Promise<Response> {
  const { binary, format } = negotiateImage(c, RESIZE_FORMATS, input.format);
  const options = { width: input.width, height: input.height, maintainAspect: input.maintain_aspect, format };
  const args = { image, options, encoding: binary ? ("binary" as const) : ("base64" as const) };
  return imageAnswer(c, await runOnPool(c.get("runtime"), pool.imageResize, args, "image"), "resized");
}

const resize = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/images/resize",
  summary: "Resize an image",
  description:
    "The JSON body carries the image as base64; or send the image itself as the body (Content-Type image/png, image/jpeg, …) with width, height, maintain_aspect and format in the query string (read only with a raw body).",
  tags: ["Utilities"],
  middleware: [
    rawBodyForm("image", IMAGE_INPUT_TYPES, (c, image) => resizeAnswer(c, image, rawOptions(c, ResizeQuery))),
  ],
  request: { query: ResizeQuery, ...jsonOrRawRequest(ResizeBody, IMAGE_INPUT_TYPES, rawImage) },
  responses: {
    200: imageAnswers(RESIZE_FORMATS, `The resized image (at most ${MAX_OUTPUT_PIXELS} pixels)`),
    ...keyedErrors,
    ...poolErrors,
    ...unsupportedType("image"),
  },
});

const handleResize: RouteHandler<typeof resize, GatewayEnv> = (c) => {
  const { image, ...input } = c.req.valid("json");
  return resizeAnswer(c, decodeBase64(image, "image"), input);
};

const ImageConvertBody = z.object({
  image: z.string(),
  format: z
    .enum(CONVERT_FORMATS)
    .optional()
    .openapi({ default: "png", description: formatNote("png") }),
  quality: z.number().int().min(1).max(100).default(95),
});
const ImageConvertQuery = z.object({
  format: blankAsAbsent(z.enum(CONVERT_FORMATS).optional()).openapi({ default: "png", description: formatNote("png") }),
  quality: queryInt(z.number().int().min(1).max(100).default(95)),
});
type ImageConvertInput = Omit<z.output<typeof ImageConvertBody>, "image">;

async function convertAnswer(c: Context<GatewayEnv>, image: Uint8Array, input: ImageConvertInput): Promise<Response> {
  const { binary, format } = negotiateImage(c, CONVERT_FORMATS, input.format);
  const args = { image, format, quality: input.quality, encoding: binary ? ("binary" as const) : ("base64" as const) };
  return imageAnswer(c, await runOnPool(c.get("runtime"), pool.imageConvert, args, "image"), "converted");
}

const imageConvert = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/images/convert",
  summary: "Convert an image to png, jpeg, webp, gif or bmp",
  description:
    "The JSON body carries the image as base64; or send the image itself as the body (Content-Type image/png, image/jpeg, …) with format and quality in the query string (read only with a raw body).",
  tags: ["Utilities"],
  middleware: [
    rawBodyForm("image", IMAGE_INPUT_TYPES, (c, image) => convertAnswer(c, image, rawOptions(c, ImageConvertQuery))),
  ],
  request: { query: ImageConvertQuery, ...jsonOrRawRequest(ImageConvertBody, IMAGE_INPUT_TYPES, rawImage) },
  responses: {
    200: imageAnswers(CONVERT_FORMATS, `The converted image (at most ${MAX_OUTPUT_PIXELS} pixels)`),
    ...keyedErrors,
    ...poolErrors,
    ...unsupportedType("image"),
  },
});

const handleImageConvert: RouteHandler<typeof imageConvert, GatewayEnv> = (c) => {
  const { image, ...input } = c.req.valid("json");
  return convertAnswer(c, decodeBase64(image, "image"), input);
};

const pages = z
  .array(z.number().int().min(1))
  .min(1)
  .max(MAX_PDF_PAGES)
  .optional()
  .openapi({ description: `1-indexed, at most ${MAX_PDF_PAGES}` });
const PdfBody = z.object({
  pdf: z.string().openapi({ description: "Base64 PDF" }),
  pages,
  include_metadata: z.boolean().default(false),
});
const PdfQuery = z.object({
  pages: queryIntList(pages).openapi({
    description: `1-indexed, comma-separated (pages=1,3), at most ${MAX_PDF_PAGES}`,
  }),
  include_metadata: queryBoolean(false),
});
type PdfInput = Omit<z.output<typeof PdfBody>, "pdf">;

async function pdfAnswer(c: Context<GatewayEnv>, pdfBytes: Uint8Array, input: PdfInput) {
  const args = { pdf: pdfBytes, pages: input.pages, includeMetadata: input.include_metadata };
  return c.json(await runOnPool(c.get("runtime"), pool.pdfExtract, args, "pdf"), 200);
}

const pdf = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/pdf/extract",
  summary: "Extract text from a PDF, per page",
  description:
    "The JSON body carries the PDF as base64; or send the PDF itself as the body (Content-Type application/pdf) with pages and include_metadata in the query string (read only with a raw body).",
  tags: ["Utilities"],
  middleware: [rawBodyForm("pdf", ["application/pdf"], (c, body) => pdfAnswer(c, body, rawOptions(c, PdfQuery)))],
  request: {
    query: PdfQuery,
    ...jsonOrRawRequest(PdfBody, ["application/pdf"], "The PDF itself, with the options as query parameters"),
  },
  responses: {
    200: jsonResponse(
      z.object({
        text: z.string(),
        pages: z.array(z.object({ page: z.number().int(), text: z.string() })),
        page_count: z.number().int(),
        metadata: z.record(z.string(), z.unknown()).optional(),
      }),
      "Text of the selected pages",
    ),
    ...keyedErrors,
    ...poolErrors,
    ...unsupportedType("PDF"),
  },
});

const handlePdf: RouteHandler<typeof pdf, GatewayEnv> = (c) => {
  const { pdf: base64, ...input } = c.req.valid("json");
  return pdfAnswer(c, decodeBase64(base64, "pdf"), input);
};

export function registerUtilsRoutes(app: OpenAPIHono<GatewayEnv>): void {
  app.openapi(citations, handleCitations);
  app.openapi(convert, handleConvert);
  app.openapi(format, handleFormat);
  app.openapi(keywordsRoute, handleKeywords);
  app.openapi(resize, handleResize);
  app.openapi(imageConvert, handleImageConvert);
  app.openapi(pdf, handlePdf);
}
