import { describe, expect, it } from "vitest";
import { chosenScopes } from "./scope-choice.ts";

describe("chosenScopes", () => {
  it("stores “every area” as no scopes, whatever boxes were left ticked", () => {
    expect(chosenScopes("all", [])).toEqual({ scopes: [] });
    expect(chosenScopes("all", ["llm"])).toEqual({ scopes: [] });
  });

  it("stores “only these” as the ticked areas, sorted, once each", () => {
    expect(chosenScopes("some", ["llm", "data", "llm"])).toEqual({ scopes: ["data", "llm"] });
  });

  it("asks again instead of reading “only these” with nothing ticked as every area", () => {
    expect(chosenScopes("some", [])).toEqual({ error: "tick at least one area, or choose “Every area”" });
    expect(chosenScopes(null, ["llm"])).toEqual({ error: "choose “Every area” or “Only the areas ticked”" });
  });

  it("offers no “every area” on a key the operator limited: at least one granted area", () => {
    expect(chosenScopes(null, ["llm"], ["data", "llm"])).toEqual({ scopes: ["llm"] });
    expect(chosenScopes("all", [], ["data", "llm"])).toEqual({
      error: "tick at least one area: the operator granted this key data, llm",
    });
  });
});
