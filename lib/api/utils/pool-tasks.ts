import { poolTask } from "../../gateway/runtime/worker-pool.ts";
import type { DataFormat } from "./data-convert.ts";
import type { TextFormat } from "./format-convert.ts";
import type { ImageBytes, ImageEncoding, ImageFormat, ImageResult, ResizeOptions } from "./images.ts";
import type { Keyword } from "./keywords.ts";
import type { PdfExtraction } from "./pdf-extract.ts";

/** The utilities' CPU-heavy work, run on the worker pool (implemented in lib/workers/heavy-tasks.ts). */
/** `encoding` picks the answer's form: ImageResult (base64) for "base64", ImageBytes for "binary". */
export const imageResize = poolTask<
  { image: Uint8Array; options: ResizeOptions; encoding: ImageEncoding },
  ImageResult | ImageBytes
>("imageResize");
export const imageConvert = poolTask<
  { image: Uint8Array; format: ImageFormat; quality: number; encoding: ImageEncoding },
  ImageResult | ImageBytes
>("imageConvert");
export const pdfExtract = poolTask<{ pdf: Uint8Array; pages?: number[]; includeMetadata: boolean }, PdfExtraction>(
  "pdfExtract",
);
export const espeak = poolTask<{ text: string; lang: string; speed: number }, Buffer>("espeak");
export const dataConvert = poolTask<{ data: unknown; from: DataFormat; to: DataFormat; pretty: boolean }, string>(
  "dataConvert",
);
export const formatConvert = poolTask<{ content: string; from: TextFormat; to: TextFormat }, string>("formatConvert");
export const keywords = poolTask<{ text: string; topK: number }, Keyword[]>("keywords");
