import { z } from "@hono/zod-openapi";
import type { AreaApp } from "../../../../gateway/http/area.ts";
import { gatewayRoute } from "../../../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../../../gateway/http/schemas.ts";
import { Any, sourceContext, tags, upstreamErrors } from "../../schemas.ts";
import { github, repository } from "./index.ts";

const repoRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/data/github/repo/{owner}/{repo}",
  summary: "A GitHub repository",
  tags,
  request: { params: z.object({ owner: z.string(), repo: z.string() }) },
  responses: { 200: jsonResponse(Any, "The repository"), ...keyedErrors, ...upstreamErrors },
});

export function registerGithubRoutes(app: AreaApp): void {
  app.openapi(repoRoute, async (c) => {
    const p = c.req.valid("param");
    return c.json(await repository(sourceContext(c, github), p.owner, p.repo), 200);
  });
}
