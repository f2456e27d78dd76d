import { z, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { describeGenerators, generatorBags, MULTIPLE_MAX, requireGenerator } from "../create/generators.ts";
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
} from "../create/schemas.ts";

// Form B's paths live under /v1/generators; its base answers like /v1/create/ instead of 404.
const index = indexAt("/v1/generators", "The content generators (Form B alias of /v1/create)");

const handleIndex: RouteHandler<typeof index, GatewayEnv> = (c) => c.json({ generators: describeGenerators() }, 200);

const randomB = gatewayRoute("key", {
  method: "get",
  path: "/v1/generators/{generator}/random",
  summary: "Form B: one item (colors: one palette of 2–10 colours)",
  tags,
  request: { params: z.object({ generator: GeneratorParam }), query: PaletteQuery },
  responses: { 200: jsonResponse(one(ItemB), "One item, or one palette"), ...keyedErrors, ...notFound },
});

const handleRandomB: RouteHandler<typeof randomB, GatewayEnv> = (c) => {
  const generator = requireGenerator(c.req.valid("param").generator);
  const bags = generatorBags(c.get("runtime"));
  const item = generator === "colors" ? bags.palettes(1, c.req.valid("query"))[0]! : bags.draw(generator);
  return c.json({ generator, item }, 200);
};

const multipleB = gatewayRoute("key", {
  method: "get",
  path: "/v1/generators/{generator}/multiple/{count}",
  summary: "Form B: 1–50 distinct items, every generator (colors: `count` palettes of `size` colours)",
  tags,
  request: { params: z.object({ generator: GeneratorParam, count: CountParam }), query: PaletteQuery },
  responses: { 200: jsonResponse(many(ItemB), "Distinct items, or distinct palettes"), ...keyedErrors, ...notFound },
});

const handleMultipleB: RouteHandler<typeof multipleB, GatewayEnv> = (c) => {
  const params = c.req.valid("param");
  const generator = requireGenerator(params.generator);
  const count = parseCount(params.count, MULTIPLE_MAX.B);
  const bags = generatorBags(c.get("runtime"));
  const items = generator === "colors" ? bags.palettes(count, c.req.valid("query")) : bags.drawMany(generator, count);
  return c.json({ generator, count, items }, 200);
};

function registerGeneratorRoutes(app: OpenAPIHono<GatewayEnv>): void {
  app.openapi(index, handleIndex);
  app.openapi(randomB, handleRandomB);
  app.openapi(multipleB, handleMultipleB);
}

/** Form B of the content generators (SPEC "Generators"): the same shuffle bags as /v1/create. */
export default defineArea({
  name: "generators",
  scope: "create",
  paths: ["/v1/generators/*"],
  routes: [registerGeneratorRoutes],
});
