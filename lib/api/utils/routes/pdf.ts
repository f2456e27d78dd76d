import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { ErrorSchema, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import type { Call } from "../../../gateway/pipeline/call.ts";
import { route, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { poolErrors, runOnPool } from "../../../gateway/runtime/worker-pool.ts";
import { decodeBase64 } from "../base64.ts";
import { MAX_PDF_PAGES } from "../formats.ts";
import { pdfExtract } from "../pool-tasks.ts";
import { jsonOrRawRequest, queryBoolean, queryIntList, rawBody, type RawForm } from "../raw-body.ts";

const RAW_PDF: RawForm = { field: "pdf", types: ["application/pdf"] };

const pages = z
  .array(z.number().int().min(1))
  .min(1)
  .max(MAX_PDF_PAGES)
  .optional()
  .openapi({ description: `1-indexed, at most ${MAX_PDF_PAGES}` });
const PdfBody = z.object({
  pdf: z.string().openapi({ description: "Base64 PDF" }),
  pages,
  include_metadata: z.boolean().default(false),
});
const PdfQuery = z.object({
  pages: queryIntList(pages).openapi({
    description: `1-indexed, comma-separated (pages=1,3), at most ${MAX_PDF_PAGES}`,
  }),
  include_metadata: queryBoolean(false),
});
type PdfInput = Omit<z.output<typeof PdfBody>, "pdf">;

function extract(c: Call, pdf: Uint8Array, input: PdfInput) {
  return runOnPool(c.runtime, pdfExtract, { pdf, pages: input.pages, includeMetadata: input.include_metadata }, "pdf");
}

const pdfRoute = gatewayRoute("key", {
  method: "post",
  path: "/v1/utils/pdf/extract",
  summary: "Extract text from a PDF, per page",
  description:
    "The JSON body carries the PDF as base64; or send the PDF itself as the body (Content-Type application/pdf) with pages and include_metadata in the query string (read only with a raw body).",
  tags: ["Utilities"],
  request: {
    query: PdfQuery,
    ...jsonOrRawRequest(PdfBody, RAW_PDF, "The PDF itself, with the options as query parameters"),
  },
  responses: {
    200: jsonResponse(
      z.object({
        text: z.string(),
        pages: z.array(z.object({ page: z.number().int(), text: z.string() })),
        page_count: z.number().int(),
        metadata: z.record(z.string(), z.unknown()).optional(),
      }),
      "Text of the selected pages",
    ),
    ...keyedErrors,
    ...poolErrors,
    415: jsonResponse(ErrorSchema, "Content-Type is neither application/json nor a raw PDF type listed here"),
  },
});

// A body the pipeline did not validate as JSON (undefined) is the raw form, its options the query's.
export const pdfRoutes: RouteDef[] = [
  route(pdfRoute, async (c, { query, body }) => {
    const json = body as z.output<typeof PdfBody> | undefined;
    if (!json) return extract(c, await rawBody(c.request, RAW_PDF), query);
    const { pdf, ...input } = json;
    return extract(c, decodeBase64(pdf, "pdf"), input);
  }),
];
