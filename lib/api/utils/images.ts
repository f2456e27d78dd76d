import sharp, { type Sharp } from "sharp";
import { GatewayError } from "../../errors.ts";
import { CONVERT_FORMATS, MAX_INPUT_PIXELS, MAX_OUTPUT_PIXELS, RESIZE_FORMATS } from "./formats.ts";
import { checkSvgText } from "./svg-text.ts";

export type ImageFormat = (typeof CONVERT_FORMATS)[number];

/** What an answer says about its image: beside it in the JSON body, or in X-Image-* headers beside the bytes. */
export type ImageInfo = { format: ImageFormat; width: number; height: number; bytes: number };
/** The JSON answer: the image as base64. */
export type ImageResult = ImageInfo & { image: string };
/** The binary answer: the image's bytes (a Buffer on the pool, a plain Uint8Array once back). */
export type ImageBytes = ImageInfo & { data: Uint8Array };
/**
 * The form an image comes back from the pool in: base64 for a JSON answer (encoded there, off the event
 * loop, as before), or the bytes for a binary one (never encoded at all).
 */
export type ImageEncoding = "base64" | "binary";

export function encodeImage(image: ImageBytes, encoding: ImageEncoding): ImageResult | ImageBytes {
  if (encoding === "binary") return image;
  const { data, ...info } = image;
  return { image: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64"), ...info };
}

export type ResizeOptions = {
  width?: number;
  height?: number;
  maintainAspect: boolean;
  format: (typeof RESIZE_FORMATS)[number];
};

export async function resizeImage(input: Buffer, options: ResizeOptions): Promise<ImageBytes> {
  if (!options.width && !options.height) throw new GatewayError(400, "give width, height, or both");
  const meta = await readMetadata(input);
  checkOutputSize(...resizedSize(meta, options));
  const pipeline = open(input).resize({
    width: options.width,
    height: options.height,
    fit: options.maintainAspect ? "inside" : "fill",
  });
  return encode(pipeline, options.format, 90);
}

export async function convertImage(input: Buffer, format: ImageFormat, quality: number): Promise<ImageBytes> {
  const meta = await readMetadata(input);
  checkOutputSize(meta.width, meta.height);
  return encode(open(input), format, quality);
}

function open(input: Buffer): Sharp {
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }).rotate();
}

async function readMetadata(input: Buffer) {
  let meta;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new GatewayError(400, "image is not a supported image (png, jpeg, webp, gif, avif, tiff, svg)");
  }
  if (meta.format === "svg") checkSvgText(input);
  // EXIF orientations 5–8 are turned a quarter by rotate(): the output's sides are swapped.
  const [width, height] =
    (meta.orientation ?? 1) >= 5 ? [meta.height ?? 0, meta.width ?? 0] : [meta.width ?? 0, meta.height ?? 0];
  if (width * height > MAX_INPUT_PIXELS) {
    throw new GatewayError(
      413,
      `image is too large: ${meta.width}x${meta.height} exceeds ${MAX_INPUT_PIXELS.toLocaleString("en-US")} pixels`,
    );
  }
  return { width, height };
}

async function encode(pipeline: Sharp, format: ImageFormat, quality: number): Promise<ImageBytes> {
  try {
    if (format === "bmp") {
      // Native all the way: sRGB without alpha, R and B swapped to BMP's BGR, rows bottom-up.
      const { data, info } = await pipeline
        .toColourspace("srgb")
        .removeAlpha()
        .recomb([
          [0, 0, 1],
          [0, 1, 0],
          [1, 0, 0],
        ])
        .flip()
        .raw()
        .toBuffer({ resolveWithObject: true });
      return result(bmp24(data, info.width, info.height), format, info.width, info.height);
    }
    const encoded =
      format === "jpeg"
        ? pipeline.flatten({ background: "#ffffff" }).jpeg({ quality, mozjpeg: true })
        : format === "webp"
          ? pipeline.webp({ quality })
          : format === "gif"
            ? pipeline.gif()
            : pipeline.png();
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return result(data, format, info.width, info.height);
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    throw new GatewayError(400, `image could not be processed: ${(err as Error).message}`);
  }
}

/** Width and height a resize produces: `inside` keeps the aspect ratio within the box, `fill` is the box. */
export function resizedSize(
  source: { width: number; height: number },
  options: Pick<ResizeOptions, "width" | "height" | "maintainAspect">,
): [number, number] {
  const { width, height } = options;
  if (width && height && !options.maintainAspect) return [width, height];
  const scale = Math.min(width ? width / source.width : Infinity, height ? height / source.height : Infinity);
  return [Math.max(1, Math.round(source.width * scale)), Math.max(1, Math.round(source.height * scale))];
}

function checkOutputSize(width: number, height: number): void {
  if (width * height > MAX_OUTPUT_PIXELS) {
    const limit = MAX_OUTPUT_PIXELS.toLocaleString("en-US");
    throw new GatewayError(413, `output image is too large: ${width}x${height} exceeds ${limit} pixels`);
  }
}

/**
 * A 24-bit BMP around BGR rows that are already bottom-up: a 54-byte header, then the rows, each padded
 * to a multiple of 4 bytes (copied row by row only when the width needs padding).
 */
export function bmp24(bgrBottomUp: Buffer, width: number, height: number): Buffer {
  const row = width * 3;
  const stride = Math.ceil(row / 4) * 4;
  const header = Buffer.alloc(54);
  header.write("BM", 0, "latin1");
  header.writeUInt32LE(54 + stride * height, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  header.writeUInt32LE(stride * height, 34);
  header.writeInt32LE(2835, 38);
  header.writeInt32LE(2835, 42);
  if (stride === row) return Buffer.concat([header, bgrBottomUp]);
  const out = Buffer.alloc(54 + stride * height);
  header.copy(out);
  for (let y = 0; y < height; y++) bgrBottomUp.copy(out, 54 + y * stride, y * row, (y + 1) * row);
  return out;
}

function result(data: Buffer, format: ImageFormat, width: number, height: number): ImageBytes {
  return { data, format, width, height, bytes: data.length };
}
