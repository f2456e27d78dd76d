import { describe, expect, it } from "vitest";
import { dataSource, listedSources, SOURCE_ORDER, SOURCES } from "./registry.ts";

describe("the data source registry", () => {
  it("finds each source by the name its descriptor carries, and lists every one once", () => {
    for (const [name, source] of Object.entries(SOURCES)) expect(dataSource(name)).toBe(source);
    expect(
      Object.values(SOURCES)
        .map((s) => s.name)
        .sort(),
    ).toEqual(Object.keys(SOURCES).sort());
    expect([...SOURCE_ORDER].sort()).toEqual(Object.keys(SOURCES).sort());
    expect(listedSources().map((s) => s.name)).toEqual(SOURCE_ORDER);
  });

  it("takes the spec's aliases and refuses any other name, an object's own properties included", () => {
    expect(dataSource("wayback").name).toBe("archive");
    expect(dataSource("noaa").name).toBe("weather");
    for (const name of ["nope", "constructor", "__proto__", "toString"])
      expect(() => dataSource(name), name).toThrow(/unknown data source/);
  });
});
