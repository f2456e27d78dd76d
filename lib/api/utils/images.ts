import bmp from "bmp-js";
import sharp, { type Sharp } from "sharp";
import { GatewayError } from "../../gateway/errors.ts";

export const RESIZE_FORMATS = ["png", "jpeg", "webp"] as const;
export const CONVERT_FORMATS = ["png", "jpeg", "webp", "gif", "bmp"] as const;
export type ImageFormat = (typeof CONVERT_FORMATS)[number];

/** Larger inputs are refused before decoding: a small file can declare an enormous canvas. */
export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_OUTPUT_SIDE = 10_000;

export type ImageResult = { image: string; format: ImageFormat; width: number; height: number; bytes: number };

export type ResizeOptions = { width?: number; height?: number; maintainAspect: boolean; format: (typeof RESIZE_FORMATS)[number] };

export async function resizeImage(input: Buffer, options: ResizeOptions): Promise<ImageResult> {
  if (!options.width && !options.height) throw new GatewayError(400, "give width, height, or both");
  await readMetadata(input);
  const pipeline = open(input).resize({
    width: options.width,
    height: options.height,
    fit: options.maintainAspect ? "inside" : "fill",
  });
  return encode(pipeline, options.format, 90);
}

export async function convertImage(input: Buffer, format: ImageFormat, quality: number): Promise<ImageResult> {
  await readMetadata(input);
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
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) {
    throw new GatewayError(413, `image is too large: ${meta.width}x${meta.height} exceeds ${MAX_INPUT_PIXELS.toLocaleString("en-US")} pixels`);
  }
  return meta;
}

async function encode(pipeline: Sharp, format: ImageFormat, quality: number): Promise<ImageResult> {
  try {
    if (format === "bmp") {
      const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      // bmp-js reads pixels as A, B, G, R.
      const abgr = Buffer.alloc(data.length);
      for (let i = 0; i < data.length; i += 4) {
        abgr[i] = data[i + 3]!;
        abgr[i + 1] = data[i + 2]!;
        abgr[i + 2] = data[i + 1]!;
        abgr[i + 3] = data[i]!;
      }
      const out = bmp.encode({ data: abgr, width: info.width, height: info.height }).data;
      return result(out, format, info.width, info.height);
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

function result(data: Buffer, format: ImageFormat, width: number, height: number): ImageResult {
  return { image: data.toString("base64"), format, width, height, bytes: data.length };
}
