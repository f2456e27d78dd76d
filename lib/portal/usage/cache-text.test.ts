import { describe, expect, it } from "vitest";
import { cacheText } from "./cache-text.ts";

describe("cacheText", () => {
  it("says a miss was answered and kept", () => {
    expect(cacheText({ state: "miss" })).toBe("miss: the provider answered, and its answer was kept");
  });

  it("says how old a hit's answer was, who first gave it, and what it saved at list prices", () => {
    const hit = {
      state: "hit",
      ageS: 1200,
      provider: "xai",
      model: "grok-4",
      promptTokens: 1000,
      completionTokens: 100,
    } as const;
    expect(cacheText(hit)).toMatch(
      /^hit: answered from an answer kept 1,200 s earlier, first given by xai\/grok-4 \(1,000 \+ 100 tokens, about \$0\.0045\d* saved\)$/,
    );
    // An unpriced model saves an unknown amount: nothing is claimed.
    expect(cacheText({ ...hit, model: "mystery" })).toBe(
      "hit: answered from an answer kept 1,200 s earlier, first given by xai/mystery (1,000 + 100 tokens)",
    );
  });
});
