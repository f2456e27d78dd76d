import { describe, expect, it } from "vitest";
import { folded, histogram, q, topBars, troveData } from "./builders.ts";

describe("chart builders", () => {
  it("points a spec at the whole trove dataset and unwraps its data array", () => {
    expect(troveData("wild/palmer-penguins")).toEqual({
      url: "/v1/trove/wild/palmer-penguins?limit=50000",
      format: { type: "json", property: "data" },
    });
  });

  it("ranks the top N after the caller's own transforms", () => {
    const spec = topBars("country", "gini", "sum", 20, { category: "Country", value: "Gini" }, [
      { filter: "datum.gini != null" },
    ]);
    expect(spec.transform).toEqual([
      { filter: "datum.gini != null" },
      { aggregate: [{ op: "sum", field: "gini", as: "measure" }], groupby: ["country"] },
      { window: [{ op: "row_number", as: "rank" }], sort: [{ field: "measure", order: "descending" }] },
      { filter: "datum.rank <= 20" },
    ]);
    expect((spec.encoding as { y: { sort: string } }).y.sort).toBe("-x");
  });

  it("counts rows when there is no value to aggregate", () => {
    const spec = topBars("state", null, "count", 5, { category: "State", value: "Airports" });
    expect((spec.transform as unknown[])[0]).toEqual({
      aggregate: [{ op: "count", as: "measure" }],
      groupby: ["state"],
    });
  });

  it("bins a histogram and folds columns", () => {
    expect(histogram("mag", "Magnitude", 10).encoding).toEqual({
      x: q("mag", { bin: { maxbins: 10 }, title: "Magnitude" }),
      y: { aggregate: "count", type: "quantitative", title: "Count" },
    });
    expect(folded(["a", "b"])).toEqual({ fold: ["a", "b"], as: ["series", "value"] });
  });
});
