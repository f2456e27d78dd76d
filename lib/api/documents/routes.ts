import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { Reply } from "../../gateway/pipeline/answer.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import { poolErrors, runOnPool } from "../../gateway/runtime/worker-pool.ts";
import { docxRender, pdfRender } from "./pool-tasks.ts";
import { renderMarkdown } from "./render-markdown.ts";
import {
  CONTENT_TYPES,
  contentDisposition,
  DOCUMENT_FORMATS,
  TEMPLATE_NAMES,
  TEMPLATES,
  type DocumentRequest,
} from "./templates.ts";

const formats = gatewayRoute("key", {
  method: "get",
  path: "/v1/documents/formats",
  summary: "Document formats and templates",
  tags: ["Documents"],
  responses: {
    200: jsonResponse(
      z.object({
        formats: z.array(z.enum(DOCUMENT_FORMATS)),
        templates: z.record(z.string(), z.object({ description: z.string() })),
      }),
      "What /v1/documents/generate can produce",
    ),
    ...keyedErrors,
  },
});

const GenerateBody = z.object({
  title: z.string().trim().min(1).max(300),
  content: z
    .string()
    .min(1)
    .max(500_000)
    .openapi({ description: "Markdown (GFM: headings, lists, tables, code, links, emphasis)" }),
  format: z.enum(DOCUMENT_FORMATS).default("pdf"),
  template: z.enum(TEMPLATE_NAMES as [string, ...string[]]).default("default"),
});

const generate = gatewayRoute("key", {
  method: "post",
  path: "/v1/documents/generate",
  summary: "Render Markdown to PDF, DOCX or Markdown",
  tags: ["Documents"],
  request: jsonRequest(GenerateBody),
  responses: {
    200: {
      description: "The document, as an attachment named after the title",
      content: {
        "application/pdf": { schema: z.string().openapi({ format: "binary" }) },
        [CONTENT_TYPES.docx]: { schema: z.string().openapi({ format: "binary" }) },
        "text/markdown": { schema: z.string() },
      },
    },
    ...keyedErrors,
    ...poolErrors,
  },
});

export const documentRoutes: RouteDef[] = [
  route(formats, () => ({
    formats: [...DOCUMENT_FORMATS],
    templates: Object.fromEntries(TEMPLATE_NAMES.map((n) => [n, { description: TEMPLATES[n].description }])),
  })),
  route(generate, async (c, { body }) => {
    const req: DocumentRequest = {
      title: body.title,
      content: body.content,
      template: body.template as DocumentRequest["template"],
      date: new Date(),
    };
    const data =
      body.format === "pdf"
        ? await runOnPool(c.runtime, pdfRender, req, "document")
        : body.format === "docx"
          ? // Also on the pool: marked's emphasis rules are quadratic (40 kB of `_a**` is ~8 s of CPU).
            await runOnPool(c.runtime, docxRender, req, "document")
          : Buffer.from(renderMarkdown(req));
    return Reply.bytes(new Uint8Array(data), CONTENT_TYPES[body.format], {
      "Content-Disposition": contentDisposition(body.title, body.format),
    });
  }),
];
