import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.ts";
import { hexToRgb } from "./color-space.ts";
import { describeGenerators, echo, GENERATORS, GeneratorBags, requireGenerator } from "./generators.ts";
import { seeded } from "./test-random.ts";

describe("requireGenerator", () => {
  it("accepts the five generators and answers 404 for anything else", () => {
    for (const name of GENERATORS) expect(requireGenerator(name)).toBe(name);
    expect(() => requireGenerator("limericks")).toThrow(GatewayError);
    try {
      requireGenerator("Insults");
    } catch (err) {
      expect((err as GatewayError).status).toBe(404);
    }
  });
});

describe("echo", () => {
  it("keeps a short value and cuts a long one (by characters, not UTF-16 units) at 40", () => {
    expect(echo("limericks")).toBe("limericks");
    expect(echo("a".repeat(40))).toBe("a".repeat(40));
    expect(echo("a".repeat(5000))).toBe(`${"a".repeat(40)}…`);
    expect(echo("😀".repeat(41))).toBe(`${"😀".repeat(40)}…`);
  });

  it("is what requireGenerator quotes, so a huge unknown name is not echoed whole", () => {
    expect(() => requireGenerator("x".repeat(8000))).toThrow(/^unknown generator 'x{40}…'; generators are/);
  });
});

describe("describeGenerators", () => {
  it("lists every generator with its size and endpoints, and no Form A multiple for dadjokes", () => {
    const index = describeGenerators();
    expect(Object.keys(index)).toEqual([...GENERATORS]);
    expect(index.colors.count).toBeGreaterThan(30_000);
    expect(index.insults.count).toBeGreaterThanOrEqual(150);
    expect(index.dadjokes.supports_multiple).toBe(false);
    expect(index.dadjokes.endpoints).not.toContain("/v1/create/dadjokes/multiple/{count}");
    expect(index.dadjokes.endpoints).toContain("/v1/generators/dadjokes/multiple/{count}");
    expect(index.antijokes.endpoints).toHaveLength(4);
  });
});

describe("GeneratorBags", () => {
  it("goes through a whole set before repeating", () => {
    const bags = new GeneratorBags(seeded(1));
    const size = describeGenerators().compliments.count;
    const ids = Array.from({ length: size }, () => (bags.draw("compliments") as { id: number }).id);
    expect(new Set(ids).size).toBe(size);
  });

  it("keeps a separate bag per generator and per instance", () => {
    const one = new GeneratorBags(seeded(2));
    const other = new GeneratorBags(seeded(2));
    const first = one.drawMany("insults", 20);
    one.drawMany("antijokes", 50);
    // Same seed, separate state: the second instance starts its own cycle at the same place.
    expect(other.drawMany("insults", 20)).toEqual(first);
    expect(new Set([...first, ...one.drawMany("insults", 20)]).size).toBe(40);
  });

  it("draws named colours with hex, rgb and hsl that agree", () => {
    const color = new GeneratorBags(seeded(3)).draw("colors");
    expect(color.name.length).toBeGreaterThan(0);
    expect(hexToRgb(color.hex)).toEqual(color.rgb);
    expect(color.hsl.h).toBeGreaterThanOrEqual(0);
    expect(color.hsl.h).toBeLessThan(360);
  });

  it("makes distinct palettes of the asked size and scheme, never repeating the previous base", () => {
    const bags = new GeneratorBags(seeded(4));
    const palettes = bags.palettes(50, { scheme: "triadic", size: 7 });
    expect(new Set(palettes.map((p) => p.base)).size).toBe(50);
    expect(palettes.every((p) => p.scheme === "triadic" && p.colors.length === 7)).toBe(true);
    const mixed = bags.palettes(30, { size: 3 });
    expect(new Set(mixed.map((p) => p.scheme)).size).toBeGreaterThan(1);
  });

  it("redraws a palette whose base repeats the previous one", () => {
    // A source stuck on one value gives the same base every time, until it moves on.
    let calls = 0;
    const stuckThenFree = () => (calls++ < 6 ? 0.5 : (calls % 97) / 97);
    const bags = new GeneratorBags(stuckThenFree);
    const [first] = bags.palettes(1, { scheme: "complementary", size: 2 });
    const [second] = bags.palettes(1, { scheme: "complementary", size: 2 });
    expect(second!.base).not.toBe(first!.base);
  });
});
