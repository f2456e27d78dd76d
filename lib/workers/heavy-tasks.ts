import type { DocumentRequest } from "../api/documents/templates.ts";
import type { DataFormat } from "../api/utils/data-convert.ts";
import type { TextFormat } from "../api/utils/format-convert.ts";
import type { ImageFormat, ResizeOptions } from "../api/utils/images.ts";
import { GatewayError } from "../errors.ts";

/** Buffers cross the thread boundary as plain Uint8Arrays; this views one as a Buffer without copying. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The CPU-heavy work that runs on the worker pool, by name, with its arguments and result. Each task
 * imports its module when first run, so a worker loads (and tsx compiles) only what it is asked to do.
 */
export const HEAVY_TASKS = {
  imageResize: async (a: { image: Uint8Array; options: ResizeOptions }) =>
    (await import("../api/utils/images.ts")).resizeImage(asBuffer(a.image), a.options),
  imageConvert: async (a: { image: Uint8Array; format: ImageFormat; quality: number }) =>
    (await import("../api/utils/images.ts")).convertImage(asBuffer(a.image), a.format, a.quality),
  pdfExtract: async (a: { pdf: Uint8Array; pages?: number[]; includeMetadata: boolean }) =>
    (await import("../api/utils/pdf-extract.ts")).extractPdf(asBuffer(a.pdf), a.pages, a.includeMetadata),
  pdfRender: async (a: DocumentRequest) => (await import("../api/documents/render-pdf.ts")).renderPdf(a),
  docxRender: async (a: DocumentRequest) => (await import("../api/documents/render-docx.ts")).renderDocx(a),
  espeak: async (a: { text: string; lang: string; speed: number }) =>
    (await import("../api/utils/speech/espeak.ts")).espeakMp3(a.text, a.lang, a.speed),
  dataConvert: async (a: { data: unknown; from: DataFormat; to: DataFormat; pretty: boolean }) =>
    (await import("../api/utils/data-convert.ts")).convertData(a.data, a.from, a.to, a.pretty),
  formatConvert: async (a: { content: string; from: TextFormat; to: TextFormat }) =>
    (await import("../api/utils/format-convert.ts")).convertFormat(a.content, a.from, a.to),
  keywords: async (a: { text: string; topK: number }) =>
    (await import("../api/utils/keywords.ts")).extractKeywords(a.text, a.topK),
};

export type HeavyTasks = typeof HEAVY_TASKS;
export type HeavyTask = keyof HeavyTasks;
export type HeavyJob = { [K in HeavyTask]: { task: K; args: Parameters<HeavyTasks[K]>[0] } }[HeavyTask];

/** What a job sends back: its value, or the user's error (a class does not survive the thread boundary). */
export type HeavyOutcome = { ok: true; value: unknown } | { ok: false; status: number; message: string };

export async function runHeavyTask(job: HeavyJob): Promise<HeavyOutcome> {
  try {
    const run = HEAVY_TASKS[job.task] as (args: unknown) => Promise<unknown>;
    return { ok: true, value: await run(job.args) };
  } catch (err) {
    if (err instanceof GatewayError) return { ok: false, status: err.status, message: err.message };
    throw err;
  }
}
