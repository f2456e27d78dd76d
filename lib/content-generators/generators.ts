import { GatewayError } from "../errors.ts";
import { colorNames, type ColorName } from "./color-names.ts";
import { describeRgb, hexToRgb, type ColorValue } from "./color-space.ts";
import { jokeSet, textSet, type JokeItem, type TextItem } from "./data-sets.ts";
import { buildPalette, pickScheme, randomBase, type Palette, type PaletteScheme } from "./palettes.ts";
import { ShuffleBag, type RandomSource } from "./shuffle-bag.ts";
import { perRuntime } from "../gateway/runtime/per-runtime.ts";

export const GENERATORS = ["insults", "antijokes", "dadjokes", "colors", "compliments"] as const;
export type GeneratorName = (typeof GENERATORS)[number];

/** Form A's `/multiple/{count}` allows 1–20 and not dadjokes; Form B's allows 1–50 and every generator. */
export const MULTIPLE_MAX = { A: 20, B: 50 } as const;

/** The generators whose items are text (everything but colors). */
export type TextGenerator = Exclude<GeneratorName, "colors">;

export type NamedColor = ColorValue & { name: string };
export type GeneratorItem = TextItem | JokeItem | NamedColor;

const DESCRIPTIONS: Record<GeneratorName, string> = {
  insults: "Mild, witty insults, some in a Shakespearean voice; never about who someone is or how they look",
  antijokes: "Antijokes: a joke's setup with a plainly literal punchline ({setup, punchline})",
  dadjokes: "Dad jokes: groan-worthy puns as {setup, punchline}",
  colors: "Named colours from color-name-list with hex/rgb/hsl; Form B gives harmonious palettes",
  compliments: "Warm, specific compliments",
};

function isGenerator(name: string): name is GeneratorName {
  return (GENERATORS as readonly string[]).includes(name);
}

/** A path value as quoted back in an error: cut short, so a 10 kB path segment is not echoed whole. */
export function echo(raw: string, max = 40): string {
  const chars = Array.from(raw);
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : raw;
}

export function requireGenerator(name: string): GeneratorName {
  if (!isGenerator(name))
    throw new GatewayError(404, `unknown generator '${echo(name)}'; generators are ${GENERATORS.join(", ")}`);
  return name;
}

function itemsOf(name: GeneratorName): readonly (TextItem | JokeItem | ColorName)[] {
  switch (name) {
    case "insults":
    case "compliments":
      return textSet(name);
    case "dadjokes":
    case "antijokes":
      return jokeSet(name);
    case "colors":
      return colorNames();
  }
}

function toItem(entry: TextItem | JokeItem | ColorName): GeneratorItem {
  return "hex" in entry ? { name: entry.name, ...describeRgb(hexToRgb(entry.hex)) } : entry;
}

export type GeneratorSummary = { description: string; count: number; supports_multiple: boolean; endpoints: string[] };

/** The index: every generator with its description, how many items it holds, and its endpoints. */
export function describeGenerators(): Record<GeneratorName, GeneratorSummary> {
  return Object.fromEntries(
    GENERATORS.map((name) => [
      name,
      {
        description: DESCRIPTIONS[name],
        count: itemsOf(name).length,
        supports_multiple: name !== "dadjokes",
        endpoints: [
          `/v1/create/${name}/random`,
          ...(name === "dadjokes" ? [] : [`/v1/create/${name}/multiple/{count}`]),
          `/v1/generators/${name}/random`,
          `/v1/generators/${name}/multiple/{count}`,
        ],
      },
    ]),
  ) as Record<GeneratorName, GeneratorSummary>;
}

export type PaletteOptions = { scheme?: PaletteScheme; size: number };

/**
 * The shuffle bags of one gateway (keyed by its runtime), shared by /v1/create and /v1/generators so
 * neither form repeats what the other just drew; two gateways in one process (tests do this) never share draws.
 */
export const generatorBags = perRuntime(() => new GeneratorBags());

/** One shuffle bag per generator, created on first use. */
export class GeneratorBags {
  private readonly bags = new Map<GeneratorName, ShuffleBag<TextItem | JokeItem | ColorName>>();
  private lastPaletteBase = "";

  constructor(private readonly random: RandomSource = Math.random) {}

  private bag(name: GeneratorName) {
    let bag = this.bags.get(name);
    if (!bag) {
      bag = new ShuffleBag(itemsOf(name), this.random);
      this.bags.set(name, bag);
    }
    return bag;
  }

  draw(name: "colors"): NamedColor;
  draw(name: TextGenerator): TextItem | JokeItem;
  draw(name: GeneratorName): GeneratorItem;
  draw(name: GeneratorName): GeneratorItem {
    return toItem(this.bag(name).next());
  }

  /** `count` distinct items, continuing the generator's bag. */
  drawMany(name: "colors", count: number): NamedColor[];
  drawMany(name: TextGenerator, count: number): (TextItem | JokeItem)[];
  drawMany(name: GeneratorName, count: number): GeneratorItem[];
  drawMany(name: GeneratorName, count: number): GeneratorItem[] {
    return this.bag(name).take(count).map(toItem);
  }

  /**
   * `count` palettes, each on a random base colour; the scheme is the one asked for or, when none is,
   * picked at random per palette. Bases never repeat within one call, so the palettes are distinct,
   * nor back to back across calls (the palette generator's version of the shuffle bag's promise).
   */
  palettes(count: number, { scheme, size }: PaletteOptions): Palette[] {
    const palettes: Palette[] = [];
    const bases = new Set<string>([this.lastPaletteBase]);
    while (palettes.length < count) {
      const palette = buildPalette(scheme ?? pickScheme(this.random), randomBase(this.random), size);
      if (bases.has(palette.base)) continue;
      bases.add(palette.base);
      palettes.push(palette);
    }
    this.lastPaletteBase = palettes.at(-1)!.base;
    return palettes;
  }
}
