import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { blankAsAbsent, ErrorSchema, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { describeGenerators, echo, GENERATORS, GeneratorBags, MULTIPLE_MAX, requireGenerator } from "./generators.ts";
import { PALETTE_SCHEMES, PALETTE_SIZE } from "./palettes.ts";

const tags = ["Generators"];

const Rgb = z.object({ r: z.number().int(), g: z.number().int(), b: z.number().int() });
const Hsl = z.object({
  h: z.number().int().describe("degrees, 0–359"),
  s: z.number().int().describe("percent"),
  l: z.number().int().describe("percent"),
});
const colorValue = { hex: z.string().openapi({ example: "#336699" }), rgb: Rgb, hsl: Hsl };

const TextItem = z.object({ id: z.number().int(), text: z.string() }).openapi("GeneratorText");
const JokeItem = z
  .object({
    id: z.number().int(),
    setup: z.string(),
    punchline: z.string(),
    text: z.string().describe("setup and punchline as one line"),
  })
  .openapi("GeneratorJoke");
const NamedColor = z.object({ name: z.string(), ...colorValue }).openapi("NamedColor");
const Swatch = z.object({
  ...colorValue,
  name: z.string().describe("the nearest name in color-name-list"),
  name_hex: z.string().describe("that name's own colour, which is rarely exactly this one"),
});
const Palette = z
  .object({ scheme: z.enum(PALETTE_SCHEMES), base: z.string(), colors: z.array(Swatch) })
  .openapi("Palette");

const ItemA = z.union([JokeItem, TextItem, NamedColor]);
const ItemB = z.union([JokeItem, TextItem, Palette]);
const one = <T extends z.ZodType>(item: T) => z.object({ generator: z.enum(GENERATORS), item });
const many = <T extends z.ZodType>(item: T) =>
  z.object({ generator: z.enum(GENERATORS), count: z.number().int(), items: z.array(item) });

const GeneratorParam = z.string().openapi({
  param: { name: "generator", in: "path" },
  description: `one of ${GENERATORS.join(", ")}; any other name is 404`,
  example: "insults",
});
// The count is checked in the handler, after the generator: an unknown generator is 404 and
// dadjokes on Form A is 400 whatever the count says.
const CountParam = z
  .string()
  .openapi({ param: { name: "count", in: "path" }, description: "a whole number", example: "3" });
const countIn = (max: number) => z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(max));

const PaletteQuery = z.object({
  scheme: blankAsAbsent(z.enum(PALETTE_SCHEMES).optional()).describe(
    "colors only: the harmony; omitted = a random scheme per palette",
  ),
  size: blankAsAbsent(
    z.coerce.number().int().min(PALETTE_SIZE.min).max(PALETTE_SIZE.max).default(PALETTE_SIZE.default),
  ).describe("colors only: colours per palette"),
});

const notFound = { 404: jsonResponse(ErrorSchema, "Unknown generator") };

const indexAt = (path: "/v1/create" | "/v1/generators", summary: string) =>
  gatewayRoute("optional", "create", {
    method: "get",
    // Declared without the trailing slash: with strict routing off, Hono then serves both
    // /v1/create and /v1/create/, while a route declared as "/v1/create/" matches neither (same for /v1/generators).
    path,
    summary,
    tags,
    responses: {
      200: jsonResponse(
        z.object({
          generators: z.record(
            z.string(),
            z.object({
              description: z.string(),
              count: z.number().int(),
              supports_multiple: z.boolean(),
              endpoints: z.array(z.string()),
            }),
          ),
        }),
        "Every generator with its size and endpoints",
      ),
      ...keyedErrors,
    },
  });
const index = indexAt("/v1/create", "The content generators");
// Form B's paths live under /v1/generators; its base answers like /v1/create/ instead of 404.
const indexB = indexAt("/v1/generators", "The content generators (Form B alias of /v1/create)");

const randomA = gatewayRoute("key", "create", {
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

const multipleA = gatewayRoute("key", "create", {
  method: "get",
  path: "/v1/create/{generator}/multiple/{count}",
  summary: "1–20 distinct items (colors: named colours; dadjokes: not supported, 400)",
  tags,
  request: { params: z.object({ generator: GeneratorParam, count: CountParam }) },
  responses: { 200: jsonResponse(many(ItemA), "Distinct items"), ...keyedErrors, ...notFound },
});

const randomB = gatewayRoute("key", "create", {
  method: "get",
  path: "/v1/generators/{generator}/random",
  summary: "Form B: one item (colors: one palette of 2–10 colours)",
  tags,
  request: { params: z.object({ generator: GeneratorParam }), query: PaletteQuery },
  responses: { 200: jsonResponse(one(ItemB), "One item, or one palette"), ...keyedErrors, ...notFound },
});

const multipleB = gatewayRoute("key", "create", {
  method: "get",
  path: "/v1/generators/{generator}/multiple/{count}",
  summary: "Form B: 1–50 distinct items, every generator (colors: `count` palettes of `size` colours)",
  tags,
  request: { params: z.object({ generator: GeneratorParam, count: CountParam }), query: PaletteQuery },
  responses: { 200: jsonResponse(many(ItemB), "Distinct items, or distinct palettes"), ...keyedErrors, ...notFound },
});

function parseCount(raw: string, max: number): number {
  const parsed = countIn(max).safeParse(raw);
  if (!parsed.success)
    throw new GatewayError(400, `invalid count '${echo(raw)}': it must be a whole number from 1 to ${max}`);
  return parsed.data;
}

export function registerGeneratorRoutes(app: OpenAPIHono<GatewayEnv>): void {
  // Held by this app, not by the module, so every gateway instance has its own bags.
  const bags = new GeneratorBags();

  app.openapi(index, (c) => c.json({ generators: describeGenerators() }, 200));
  app.openapi(indexB, (c) => c.json({ generators: describeGenerators() }, 200));

  app.openapi(randomA, (c) => {
    const generator = requireGenerator(c.req.valid("param").generator);
    return c.json({ generator, item: bags.draw(generator) }, 200);
  });

  app.openapi(multipleA, (c) => {
    const params = c.req.valid("param");
    const generator = requireGenerator(params.generator);
    if (generator === "dadjokes") {
      throw new GatewayError(
        400,
        "dadjokes does not support multiple here: use /v1/create/dadjokes/random, or /v1/generators/dadjokes/multiple/{count}",
      );
    }
    const count = parseCount(params.count, MULTIPLE_MAX.A);
    return c.json({ generator, count, items: bags.drawMany(generator, count) }, 200);
  });

  app.openapi(randomB, (c) => {
    const generator = requireGenerator(c.req.valid("param").generator);
    const item = generator === "colors" ? bags.palettes(1, c.req.valid("query"))[0]! : bags.draw(generator);
    return c.json({ generator, item }, 200);
  });

  app.openapi(multipleB, (c) => {
    const params = c.req.valid("param");
    const generator = requireGenerator(params.generator);
    const count = parseCount(params.count, MULTIPLE_MAX.B);
    const items = generator === "colors" ? bags.palettes(count, c.req.valid("query")) : bags.drawMany(generator, count);
    return c.json({ generator, count, items }, 200);
  });
}
