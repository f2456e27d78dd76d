import { docxRender, pdfRender } from "../api/documents/pool-tasks.ts";
import * as utils from "../api/utils/pool-tasks.ts";
import { GatewayError } from "../errors.ts";
import type { PoolOutcome, PoolTask } from "../gateway/runtime/worker-pool.ts";

/** Buffers cross the thread boundary as plain Uint8Arrays; this views one as a Buffer without copying. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

type Run = (args: unknown) => Promise<unknown>;
const implement = <Args, Result>(task: PoolTask<Args, Result>, run: (args: Args) => Promise<Result>) =>
  [task.name, run as Run] as const;

/**
 * The CPU-heavy work that runs on the worker pool, each task as its area declared it. Each imports
 * its module when first run, so a worker loads (and tsx compiles) only what it is asked to do.
 */
export const HEAVY_TASKS: ReadonlyMap<string, Run> = new Map([
  implement(utils.imageResize, async (a) => {
    const images = await import("../api/utils/images.ts");
    return images.encodeImage(await images.resizeImage(asBuffer(a.image), a.options), a.encoding);
  }),
  implement(utils.imageConvert, async (a) => {
    const images = await import("../api/utils/images.ts");
    return images.encodeImage(await images.convertImage(asBuffer(a.image), a.format, a.quality), a.encoding);
  }),
  implement(utils.pdfExtract, async (a) =>
    (await import("../api/utils/pdf-extract.ts")).extractPdf(asBuffer(a.pdf), a.pages, a.includeMetadata),
  ),
  implement(pdfRender, async (a) => (await import("../api/documents/render-pdf.ts")).renderPdf(a)),
  implement(docxRender, async (a) => (await import("../api/documents/render-docx.ts")).renderDocx(a)),
  implement(utils.espeak, async (a) =>
    (await import("../api/utils/speech/espeak.ts")).espeakMp3(a.text, a.lang, a.speed),
  ),
  implement(utils.dataConvert, async (a) =>
    (await import("../api/utils/data-convert.ts")).convertData(a.data, a.from, a.to, a.pretty),
  ),
  implement(utils.formatConvert, async (a) =>
    (await import("../api/utils/format-convert.ts")).convertFormat(a.content, a.from, a.to),
  ),
  implement(utils.keywords, async (a) => (await import("../api/utils/keywords.ts")).extractKeywords(a.text, a.topK)),
]);

export async function runHeavyTask(job: { task: string; args: unknown }): Promise<PoolOutcome> {
  const run = HEAVY_TASKS.get(job.task);
  if (!run) return { ok: false, status: 500, message: `no heavy task named ${job.task}` };
  try {
    return { ok: true, value: await run(job.args) };
  } catch (err) {
    if (err instanceof GatewayError) return { ok: false, status: err.status, message: err.message };
    throw err;
  }
}
