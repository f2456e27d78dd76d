import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { CITATION_STYLES } from "../formats.ts";
import { openErrors } from "./keyless.ts";

const year = z.union([z.number().int(), z.string().regex(/^\d{1,4}$/)]);
const CitationBody = z
  .object({
    source: z
      .object({
        title: z.string().min(1).max(2000),
        author: z.string().max(2000).optional(),
        year: year.optional(),
        url: z.string().url().optional(),
      })
      .optional()
      .openapi({ description: "Form A" }),
    citation: z
      .object({
        title: z.string().min(1).max(2000),
        authors: z.array(z.string().max(300)).max(100).optional(),
        year: year.optional(),
        journal: z.string().max(1000).optional(),
        doi: z.string().max(300).optional(),
        url: z.string().url().optional(),
      })
      .optional()
      .openapi({ description: "Form B" }),
    style: z.enum(CITATION_STYLES).default("apa"),
  })
  .refine((b) => Boolean(b.source) !== Boolean(b.citation), {
    message: "give either source (Form A) or citation (Form B)",
    path: ["source"],
  });

const citations = gatewayRoute(
  "none",
  {
    method: "post",
    path: "/v1/utils/citations/format",
    summary: "Format a citation in APA, MLA, Chicago, Harvard (CSL styles) or BibTeX",
    tags: ["Utilities"],
    request: jsonRequest(CitationBody),
    responses: {
      200: jsonResponse(
        z.object({ citation: z.string(), html: z.string().nullable(), style: z.enum(CITATION_STYLES) }),
        "The formatted reference as text and HTML (BibTeX: text only)",
      ),
      ...openErrors,
    },
  },
  { limitKeyless: true },
);

export const citationRoutes: RouteDef[] = [
  route(citations, async (_c, { body }) => {
    // citation-js (~14 MB) loads with the first citation.
    const { formatCitation } = await import("../citations.ts");
    return formatCitation((body.source ?? body.citation)!, body.style);
  }),
];
