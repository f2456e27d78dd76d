import { z } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { Any, sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { pubmed, pubmedArticle } from "./index.ts";

const articleRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/pubmed/article/{pmid}",
  summary: "A PubMed article's metadata and abstract",
  tags,
  request: { params: z.object({ pmid: z.string() }) },
  responses: { 200: jsonResponse(Any, "The article"), ...keyedErrors, ...upstreamErrors },
});

export function registerPubmedRoutes(app: AreaApp): void {
  app.openapi(articleRoute, async (c) =>
    c.json(await pubmedArticle(sourceContext(c, pubmed), c.req.valid("param").pmid), 200),
  );
}
