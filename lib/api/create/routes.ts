import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import {
  describeGenerators,
  generatorBags,
  MULTIPLE_MAX,
  requireGenerator,
} from "../../content-generators/generators.ts";
import {
  GeneratorParam,
  CountParam,
  indexAt,
  ItemA,
  many,
  notFound,
  one,
  parseCount,
  tags,
} from "../../content-generators/schemas.ts";

const index = indexAt("/v1/create", "The content generators");

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

const multipleA = gatewayRoute("key", {
  method: "get",
  path: "/v1/create/{generator}/multiple/{count}",
  summary: "1–20 distinct items (colors: named colours; dadjokes: not supported, 400)",
  tags,
  request: { params: z.object({ generator: GeneratorParam, count: CountParam }) },
  responses: { 200: jsonResponse(many(ItemA), "Distinct items"), ...keyedErrors, ...notFound },
});

export const createRoutes: RouteDef[] = [
  route(index, () => ({ generators: describeGenerators() })),
  route(randomA, (c, { params }) => {
    const generator = requireGenerator(params.generator);
    return { generator, item: generatorBags(c.runtime).draw(generator) };
  }),
  route(multipleA, (c, { params }) => {
    const generator = requireGenerator(params.generator);
    if (generator === "dadjokes") {
      throw new GatewayError(
        400,
        "dadjokes does not support multiple here: use /v1/create/dadjokes/random, or /v1/generators/dadjokes/multiple/{count}",
      );
    }
    const count = parseCount(params.count, MULTIPLE_MAX.A);
    return { generator, count, items: generatorBags(c.runtime).drawMany(generator, count) };
  }),
];
