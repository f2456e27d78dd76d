import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../../../gateway/pipeline/route.ts";
import { Any, sourceContext, tags } from "../../schemas.ts";
import { upstreamErrors } from "../../../../data-sources/error-responses.ts";
import { github, repository } from "../../../../data-sources/github/index.ts";

const repoRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/github/repo/{owner}/{repo}",
  summary: "A GitHub repository",
  tags,
  request: { params: z.object({ owner: z.string(), repo: z.string() }) },
  responses: { 200: jsonResponse(Any, "The repository"), ...keyedErrors, ...upstreamErrors },
});

export const githubRoutes: RouteDef[] = [
  route(repoRoute, (c, { params }) => repository(sourceContext(c, github), params.owner, params.repo)),
];
