import { Reply } from "../../gateway/pipeline/answer.ts";
import { preferredType } from "./accept.ts";
import type { ImageBytes, ImageFormat, ImageResult } from "./images.ts";

/** The media type of each output format: the only Content-Type an image answer is ever sent with. */
export const IMAGE_OUTPUT_TYPES: Readonly<Record<ImageFormat, string>> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  bmp: "image/bmp",
};

const JSON_TYPE = "application/json";

/**
 * The answer's form and format. JSON unless Accept prefers an image type this request can produce:
 * `image/*`, or the format's own type. With no format asked for, Accept may choose it among `formats`
 * (`image/*` alone gets the first, the default); one asked for is the only image type on offer. An
 * Accept naming nothing on offer gets JSON, as no Accept does.
 */
export function negotiateImage<F extends ImageFormat>(
  accept: string | undefined,
  formats: readonly F[],
  asked: F | undefined,
): { binary: boolean; format: F } {
  const offered = asked ? [asked] : formats;
  const chosen = preferredType(accept, [JSON_TYPE, ...offered.map((f) => IMAGE_OUTPUT_TYPES[f])], JSON_TYPE);
  const format = offered.find((f) => IMAGE_OUTPUT_TYPES[f] === chosen);
  return format ? { binary: true, format } : { binary: false, format: asked ?? formats[0]! };
}

/** The headers that describe an image answer's bytes, as its JSON body would. */
export const IMAGE_HEADERS = {
  "X-Image-Format": "png, jpeg, webp, gif or bmp",
  "X-Image-Width": "width in pixels",
  "X-Image-Height": "height in pixels",
  "X-Image-Bytes": "size of the image in bytes (also its Content-Length)",
} as const;

/**
 * An image route's answer. JSON as the spec has it, or the bytes: typed as the validated output format
 * only (never the input's type, and SVG is no output format), nosniff, inline under a fixed filename,
 * the JSON's fields in X-Image-* headers, and a Content-Length metered as bytes out. Both vary by Accept.
 */
export function imageAnswer(out: ImageResult | ImageBytes, name: string): Reply {
  if (!("data" in out)) return Reply.json(out, 200, { Vary: "Accept" });
  const { data, format, width, height, bytes } = out;
  return Reply.bytes(data, IMAGE_OUTPUT_TYPES[format], {
    "Content-Disposition": `inline; filename="${name}.${format === "jpeg" ? "jpg" : format}"`,
    "X-Content-Type-Options": "nosniff",
    "X-Image-Format": format,
    "X-Image-Width": String(width),
    "X-Image-Height": String(height),
    "X-Image-Bytes": String(bytes),
    Vary: "Accept",
  });
}
