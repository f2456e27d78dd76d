import { describe, expect, it } from "vitest";
import { areasOf, stateRecord } from "./normalise.ts";

describe("census tables", () => {
  it("read each area's name, population and FIPS code, whatever the column order", () => {
    const counties = [
      ["NAME", "B01003_001E", "state", "county"],
      ["Alameda County, California", "1663823", "06", "001"],
    ];
    expect(areasOf(counties)).toEqual([{ name: "Alameda County, California", population: 1663823, fips: "06001" }]);
    expect(
      areasOf([
        ["state", "B01003_001E", "NAME"],
        ["06", "39356104", "California"],
      ]),
    ).toEqual([{ name: "California", population: 39356104, fips: "06" }]);
  });

  it("answer 502 for a body that is not a table", () => {
    expect(() => areasOf({ error: "oops" })).toThrow(/without a table/);
    expect(() => areasOf([])).toThrow(/without a table/);
  });

  it("make a state a record summarising its population", () => {
    expect(stateRecord({ name: "California", population: 39356104, fips: "06" }, 2022)).toEqual({
      id: "06",
      title: "California",
      url: null,
      summary: "Population 39,356,104 (ACS 2022)",
      source: "census",
      extra: { population: 39356104, year: 2022 },
    });
  });
});
