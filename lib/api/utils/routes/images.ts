import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { blankAsAbsent, ErrorSchema, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import type { Reply } from "../../../gateway/pipeline/answer.ts";
import type { Call } from "../../../gateway/pipeline/call.ts";
import { route, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { poolErrors, runOnPool } from "../../../gateway/runtime/worker-pool.ts";
import { decodeBase64 } from "../base64.ts";
import { CONVERT_FORMATS, MAX_OUTPUT_PIXELS, MAX_OUTPUT_SIDE, RESIZE_FORMATS } from "../formats.ts";
import { IMAGE_HEADERS, IMAGE_OUTPUT_TYPES, imageAnswer, negotiateImage } from "../image-answer.ts";
import type { ImageFormat } from "../images.ts";
import { imageConvert, imageResize } from "../pool-tasks.ts";
import { jsonOrRawRequest, queryBoolean, queryInt, rawBody, type RawForm } from "../raw-body.ts";

/** What sharp reads from a buffer (its prebuilt libvips: AVIF is its only HEIF), as the base64 form does. */
const IMAGE_INPUT_TYPES = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "image/avif",
  "image/tiff",
  "image/svg+xml",
] as const;
const RAW_IMAGE: RawForm = { field: "image", types: IMAGE_INPUT_TYPES };

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
const unsupportedType = {
  415: jsonResponse(ErrorSchema, "Content-Type is neither application/json nor a raw image type listed here"),
};

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

async function resizeAnswer(c: Call, image: Uint8Array, input: ResizeInput): Promise<Reply> {
  const { binary, format } = negotiateImage(c.header("accept"), RESIZE_FORMATS, input.format);
  const options = { width: input.width, height: input.height, maintainAspect: input.maintain_aspect, format };
  const args = { image, options, encoding: binary ? ("binary" as const) : ("base64" as const) };
  return imageAnswer(await runOnPool(c.runtime, imageResize, args, "image"), "resized");
}

const resize = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/images/resize",
  summary: "Resize an image",
  description:
    "The JSON body carries the image as base64; or send the image itself as the body (Content-Type image/png, image/jpeg, …) with width, height, maintain_aspect and format in the query string (read only with a raw body).",
  tags: ["Utilities"],
  request: { query: ResizeQuery, ...jsonOrRawRequest(ResizeBody, RAW_IMAGE, rawImage) },
  responses: {
    200: imageAnswers(RESIZE_FORMATS, `The resized image (at most ${MAX_OUTPUT_PIXELS} pixels)`),
    ...keyedErrors,
    ...poolErrors,
    ...unsupportedType,
  },
});

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

async function convertAnswer(c: Call, image: Uint8Array, input: ImageConvertInput): Promise<Reply> {
  const { binary, format } = negotiateImage(c.header("accept"), CONVERT_FORMATS, input.format);
  const args = { image, format, quality: input.quality, encoding: binary ? ("binary" as const) : ("base64" as const) };
  return imageAnswer(await runOnPool(c.runtime, imageConvert, args, "image"), "converted");
}

const convert = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/images/convert",
  summary: "Convert an image to png, jpeg, webp, gif or bmp",
  description:
    "The JSON body carries the image as base64; or send the image itself as the body (Content-Type image/png, image/jpeg, …) with format and quality in the query string (read only with a raw body).",
  tags: ["Utilities"],
  request: { query: ImageConvertQuery, ...jsonOrRawRequest(ImageConvertBody, RAW_IMAGE, rawImage) },
  responses: {
    200: imageAnswers(CONVERT_FORMATS, `The converted image (at most ${MAX_OUTPUT_PIXELS} pixels)`),
    ...keyedErrors,
    ...poolErrors,
    ...unsupportedType,
  },
});

// A body the pipeline did not validate as JSON (undefined) is the raw form, its options the query's.
export const imageRoutes: RouteDef[] = [
  route(resize, async (c, { query, body }) => {
    const json = body as z.output<typeof ResizeBody> | undefined;
    if (!json) return resizeAnswer(c, await rawBody(c.request, RAW_IMAGE), query);
    const { image, ...input } = json;
    return resizeAnswer(c, decodeBase64(image, "image"), input);
  }),
  route(convert, async (c, { query, body }) => {
    const json = body as z.output<typeof ImageConvertBody> | undefined;
    if (!json) return convertAnswer(c, await rawBody(c.request, RAW_IMAGE), query);
    const { image, ...input } = json;
    return convertAnswer(c, decodeBase64(image, "image"), input);
  }),
];
