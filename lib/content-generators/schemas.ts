import { z } from "@hono/zod-openapi";
import { GatewayError } from "../errors.ts";
import { gatewayRoute } from "../gateway/http/route.ts";
import { blankAsAbsent, ErrorSchema, jsonResponse, keyedErrors } from "../gateway/http/schemas.ts";
import { echo, GENERATORS } from "./generators.ts";
import { PALETTE_SCHEMES, PALETTE_SIZE } from "./palettes.ts";

// The contract both forms share: Form A under /v1/create (lib/api/create/routes.ts), Form B under /v1/generators.

export const tags = ["Generators"];

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

export const ItemA = z.union([JokeItem, TextItem, NamedColor]);
export const ItemB = z.union([JokeItem, TextItem, Palette]);
export const one = <T extends z.ZodType>(item: T) => z.object({ generator: z.enum(GENERATORS), item });
export const many = <T extends z.ZodType>(item: T) =>
  z.object({ generator: z.enum(GENERATORS), count: z.number().int(), items: z.array(item) });

export const GeneratorParam = z.string().openapi({
  param: { name: "generator", in: "path" },
  description: `one of ${GENERATORS.join(", ")}; any other name is 404`,
  example: "insults",
});
// The count is checked in the handler, after the generator: an unknown generator is 404 and
// dadjokes on Form A is 400 whatever the count says.
export const CountParam = z
  .string()
  .openapi({ param: { name: "count", in: "path" }, description: "a whole number", example: "3" });
const countIn = (max: number) => z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1).max(max));

export const PaletteQuery = z.object({
  scheme: blankAsAbsent(z.enum(PALETTE_SCHEMES).optional()).describe(
    "colors only: the harmony; omitted = a random scheme per palette",
  ),
  size: blankAsAbsent(
    z.coerce.number().int().min(PALETTE_SIZE.min).max(PALETTE_SIZE.max).default(PALETTE_SIZE.default),
  ).describe("colors only: colours per palette"),
});

export const notFound = { 404: jsonResponse(ErrorSchema, "Unknown generator") };

export const indexAt = (path: "/v1/create" | "/v1/generators", summary: string) =>
  gatewayRoute("optional", {
    method: "get",
    // Declared without the trailing slash: the route table ignores a trailing slash, so both
    // /v1/create and /v1/create/ are this route (same for /v1/generators).
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

export function parseCount(raw: string, max: number): number {
  const parsed = countIn(max).safeParse(raw);
  if (!parsed.success)
    throw new GatewayError(400, `invalid count '${echo(raw)}': it must be a whole number from 1 to ${max}`);
  return parsed.data;
}
