import { describe, expect, it } from "vitest";
import { bestTier, foldText, matchTier } from "./text-match.ts";

describe("foldText", () => {
  it("folds case, diacritics and spacing", () => {
    expect(foldText("  Volapük ")).toBe("volapuk");
    expect(foldText("Irántxe-Münkü")).toBe("irantxe-munku");
    expect(foldText("Tai   Nüa")).toBe("tai nua");
  });
});

describe("matchTier", () => {
  it("ranks exact over prefix over substring, and misses with null", () => {
    expect(matchTier("english", "english")).toBe("exact");
    expect(matchTier("english", "eng")).toBe("prefix");
    expect(matchTier("old english", "english")).toBe("substring");
    expect(matchTier("french", "english")).toBeNull();
    expect(matchTier("french", "")).toBeNull();
  });

  it("bestTier keeps the better of two tiers", () => {
    expect(bestTier("substring", "exact")).toBe("exact");
    expect(bestTier(null, "prefix")).toBe("prefix");
    expect(bestTier("prefix", null)).toBe("prefix");
    expect(bestTier(null, null)).toBeNull();
  });
});
