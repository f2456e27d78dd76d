import { describe, expect, it } from "vitest";
import { nestsDeeperThan, yamlDepthBound } from "./nesting-depth.ts";

function nested(levels: number, wrap: (inner: unknown) => unknown): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = wrap(value);
  return value;
}

describe("nestsDeeperThan", () => {
  it("counts arrays and objects, not scalars", () => {
    expect(nestsDeeperThan(42, 0)).toBe(false);
    expect(nestsDeeperThan([], 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1, { b: "x" }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, { b: {} }] }, 3)).toBe(true);
  });

  it("finds the deepest branch among shallow siblings", () => {
    expect(nestsDeeperThan([1, 2, nested(5, (v) => [v]), { a: 1 }], 5)).toBe(true);
    expect(nestsDeeperThan([1, 2, nested(4, (v) => [v]), { a: 1 }], 5)).toBe(false);
  });

  it("walks 100,000 levels without overflowing the stack", () => {
    expect(
      nestsDeeperThan(
        nested(100_000, (v) => ({ a: v })),
        100,
      ),
    ).toBe(true);
    expect(
      nestsDeeperThan(
        nested(100, (v) => [v]),
        100,
      ),
    ).toBe(false);
  });
});

describe("yamlDepthBound", () => {
  it("is at least the real depth, counting flow brackets and block indentation", () => {
    expect(yamlDepthBound("a: 1\nb: [1, {c: 2}]\n")).toBeGreaterThanOrEqual(3);
    const block = Array.from({ length: 60 }, (_, i) => `${" ".repeat(i)}- `).join("\n");
    expect(yamlDepthBound(block)).toBeGreaterThanOrEqual(60);
    expect(yamlDepthBound("- - - - - x")).toBeGreaterThanOrEqual(5);
    expect(yamlDepthBound("[".repeat(101) + "]".repeat(101))).toBeGreaterThanOrEqual(101);
  });

  it("ignores brackets in quotes and comments, so ordinary documents pass", () => {
    expect(
      yamlDepthBound(
        `a: "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\n`,
      ),
    ).toBeLessThan(10);
    expect(
      yamlDepthBound(
        `a: '{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{'\n`,
      ),
    ).toBeLessThan(10);
    expect(yamlDepthBound(`# ${"[".repeat(200)}\nkey: value # ${"{".repeat(200)}\n`)).toBeLessThan(10);
    const nested = Array.from({ length: 30 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n") + " leaf";
    expect(yamlDepthBound(nested)).toBeLessThanOrEqual(100);
  });

  it("cannot be fooled by a closing bracket inside quotes", () => {
    expect(yamlDepthBound(`["]]]]]]]]]]", ${"[".repeat(150)}${"]".repeat(150)}]`)).toBeGreaterThan(150);
  });
});
