import { z, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { describeGenerators, generatorBags, MULTIPLE_MAX, requireGenerator } from "./generators.ts";
import { GeneratorParam, CountParam, indexAt, ItemA, many, notFound, one, parseCount, tags } from "./schemas.ts";

const index = indexAt("/v1/create", "The content generators");

const handleIndex: RouteHandler<typeof index, GatewayEnv> = (c) => c.json({ generators: describeGenerators() }, 200);

const randomA = gatewayRoute("key", {
  method: "get",
  path: "/v1/create/{generator}/random",
  summary: "One item from a generator (colors: one named colour)",
  tags,
  request: { params: z.object({ generator: GeneratorParam }) },
  responses: {
    200: jsonResponse(one(ItemA), "The next item of the generator's shuffle bag"),
    ...keyedErrors,
    ...notFound,
  },
});

const handleRandomA: RouteHandler<typeof randomA, GatewayEnv> = (c) => {
  const generator = requireGenerator(c.req.valid("param").generator);
  return c.json({ generator, item: generatorBags(c.get("runtime")).draw(generator) }, 200);
};

const multipleA = gatewayRoute("key", {
  method: "get",
  path: "/v1/create/{generator}/multiple/{count}",
  summary: "1–20 distinct items (colors: named colours; dadjokes: not supported, 400)",
  tags,
  request: { params: z.object({ generator: GeneratorParam, count: CountParam }) },
  responses: { 200: jsonResponse(many(ItemA), "Distinct items"), ...keyedErrors, ...notFound },
});

const handleMultipleA: RouteHandler<typeof multipleA, GatewayEnv> = (c) => {
  const params = c.req.valid("param");
  const generator = requireGenerator(params.generator);
  if (generator === "dadjokes") {
    throw new GatewayError(
      400,
      "dadjokes does not support multiple here: use /v1/create/dadjokes/random, or /v1/generators/dadjokes/multiple/{count}",
    );
  }
  const count = parseCount(params.count, MULTIPLE_MAX.A);
  return c.json({ generator, count, items: generatorBags(c.get("runtime")).drawMany(generator, count) }, 200);
};

export function registerCreateRoutes(app: OpenAPIHono<GatewayEnv>): void {
  app.openapi(index, handleIndex);
  app.openapi(randomA, handleRandomA);
  app.openapi(multipleA, handleMultipleA);
}
