import { poolTask } from "../../gateway/runtime/worker-pool.ts";
import type { DocumentRequest } from "./templates.ts";

/** Document rendering runs on the worker pool (implemented in lib/workers/heavy-tasks.ts). */
export const pdfRender = poolTask<DocumentRequest, Buffer>("pdfRender");
export const docxRender = poolTask<DocumentRequest, Buffer>("docxRender");
