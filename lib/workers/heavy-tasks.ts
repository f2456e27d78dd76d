import { docxRender, pdfRender } from "../api/documents/pool-tasks.ts";
import * as utils from "../api/utils/pool-tasks.ts";
import { guardPromptTask } from "../guardrails/pool-tasks.ts";
import type { MessagePort } from "node:worker_threads";
import { GatewayError } from "../errors.ts";
import { emptyJob, type PoolOutcome, type PoolTask } from "../gateway/runtime/worker-pool.ts";

/** Buffers cross the thread boundary as plain Uint8Arrays; this views one as a Buffer without copying. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

type Run = (args: unknown, begin: () => void) => Promise<unknown>;
/**
 * A task is its module's import and the work on it. `begin` marks the end of loading, where the job's
 * time limit starts (lib/gateway/runtime/worker-pool.ts): a thread's start and a module's first
 * import (pdf.js, sharp) are the server's cost, not the job's.
 */
export const implement = <Args, Result, Module>(
  task: PoolTask<Args, Result>,
  load: () => Promise<Module>,
  run: (module: Module, args: Args) => Promise<Result> | Result,
) =>
  [
    task.name,
    (async (args, begin) => {
      const loaded = await load();
      begin();
      return run(loaded, args as Args);
    }) as Run,
  ] as const;

/**
 * The CPU-heavy work that runs on the worker pool, each task as its area declared it. Each imports
 * its module when first run, so a worker loads (and tsx compiles) only what it is asked to do.
 */
export const HEAVY_TASKS: ReadonlyMap<string, Run> = new Map([
  implement(
    emptyJob,
    async () => undefined,
    () => null,
  ),
  implement(
    utils.imageResize,
    () => import("../api/utils/images.ts"),
    async (images, a) => images.encodeImage(await images.resizeImage(asBuffer(a.image), a.options), a.encoding),
  ),
  implement(
    utils.imageConvert,
    () => import("../api/utils/images.ts"),
    async (images, a) =>
      images.encodeImage(await images.convertImage(asBuffer(a.image), a.format, a.quality), a.encoding),
  ),
  implement(
    utils.pdfExtract,
    () => import("../api/utils/pdf-extract.ts"),
    (m, a) => m.extractPdf(asBuffer(a.pdf), a.pages, a.includeMetadata),
  ),
  implement(
    pdfRender,
    () => import("../api/documents/render-pdf.ts"),
    (m, a) => m.renderPdf(a),
  ),
  implement(
    docxRender,
    () => import("../api/documents/render-docx.ts"),
    (m, a) => m.renderDocx(a),
  ),
  implement(
    utils.espeak,
    () => import("../api/utils/speech/espeak.ts"),
    (m, a) => m.espeakMp3(a.text, a.lang, a.speed),
  ),
  implement(
    utils.dataConvert,
    () => import("../api/utils/data-convert.ts"),
    (m, a) => m.convertData(a.data, a.from, a.to, a.pretty),
  ),
  implement(
    utils.formatConvert,
    () => import("../api/utils/format-convert.ts"),
    (m, a) => m.convertFormat(a.content, a.from, a.to),
  ),
  implement(
    utils.keywords,
    () => import("../api/utils/keywords.ts"),
    (m, a) => m.extractKeywords(a.text, a.topK),
  ),
  implement(
    guardPromptTask,
    () => import("../guardrails/prompt-on-thread.ts"),
    (m, a) => m.guardOnThread(a.name, a.spec, a.body),
  ),
]);

/**
 * One job from the pool. `started`, when the caller sends one, hears "begun" once the task's module
 * is loaded and its work starts, and is closed then.
 */
export async function runHeavyTask(job: { task: string; args: unknown; started?: MessagePort }): Promise<PoolOutcome> {
  const run = HEAVY_TASKS.get(job.task);
  if (!run) return { ok: false, status: 500, message: `no heavy task named ${job.task}` };
  const begin = () => {
    job.started?.postMessage("begun");
    job.started?.close();
  };
  try {
    return { ok: true, value: await run(job.args, begin) };
  } catch (err) {
    if (err instanceof GatewayError) return { ok: false, status: err.status, message: err.message };
    throw err;
  }
}
