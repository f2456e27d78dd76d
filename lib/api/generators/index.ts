import { z } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route } from "../../gateway/pipeline/route.ts";
import {
  describeGenerators,
  generatorBags,
  MULTIPLE_MAX,
  requireGenerator,
} from "../../content-generators/generators.ts";
import {
  CountParam,
  GeneratorParam,
  indexAt,
  ItemB,
  many,
  notFound,
  one,
  PaletteQuery,
  parseCount,
  tags,
} from "../../content-generators/schemas.ts";

// Form B's paths live under /v1/generators; its base answers like /v1/create/ instead of 404.
const index = indexAt("/v1/generators", "The content generators (Form B alias of /v1/create)");

const randomB = gatewayRoute("key", {
  method: "get",
  path: "/v1/generators/{generator}/random",
  summary: "Form B: one item (colors: one palette of 2–10 colours)",
  tags,
  request: { params: z.object({ generator: GeneratorParam }), query: PaletteQuery },
  responses: { 200: jsonResponse(one(ItemB), "One item, or one palette"), ...keyedErrors, ...notFound },
});

const multipleB = gatewayRoute("key", {
  method: "get",
  path: "/v1/generators/{generator}/multiple/{count}",
  summary: "Form B: 1–50 distinct items, every generator (colors: `count` palettes of `size` colours)",
  tags,
  request: { params: z.object({ generator: GeneratorParam, count: CountParam }), query: PaletteQuery },
  responses: { 200: jsonResponse(many(ItemB), "Distinct items, or distinct palettes"), ...keyedErrors, ...notFound },
});

const generatorRoutes = [
  route(index, () => ({ generators: describeGenerators() })),
  route(randomB, (c, { params, query }) => {
    const generator = requireGenerator(params.generator);
    const bags = generatorBags(c.runtime);
    const item = generator === "colors" ? bags.palettes(1, query)[0]! : bags.draw(generator);
    return { generator, item };
  }),
  route(multipleB, (c, { params, query }) => {
    const generator = requireGenerator(params.generator);
    const count = parseCount(params.count, MULTIPLE_MAX.B);
    const bags = generatorBags(c.runtime);
    const items = generator === "colors" ? bags.palettes(count, query) : bags.drawMany(generator, count);
    return { generator, count, items };
  }),
];

/** Form B of the content generators (SPEC "Generators"): the same shuffle bags as /v1/create. */
export default defineArea({
  name: "generators",
  scope: "create",
  paths: ["/v1/generators/*"],
  routes: generatorRoutes,
});
