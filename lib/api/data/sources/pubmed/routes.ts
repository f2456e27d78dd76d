import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { Any, sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { pubmed, pubmedArticle } from "../../../../data-sources/pubmed/index.ts";

const articleRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/pubmed/article/{pmid}",
  summary: "A PubMed article's metadata and abstract",
  tags,
  request: { params: z.object({ pmid: z.string() }) },
  responses: { 200: jsonResponse(Any, "The article"), ...keyedErrors, ...upstreamErrors },
});

export const pubmedRoutes: RouteDef[] = [
  route(articleRoute, (c, { params }) => pubmedArticle(sourceContext(c, pubmed), params.pmid)),
];
