import { describe, expect, it } from "vitest";
import { requestTerms } from "./request-terms.ts";

describe("requestTerms", () => {
  it("names the areas asked for and the last day, or says there is no limit to either", () => {
    expect(requestTerms({ scopes: ["data", "llm"], expiresAt: new Date("2027-01-01T00:00:00Z") })).toBe(
      "Areas: data, llm · last day: 2026-12-31 (UTC)",
    );
    expect(requestTerms({ scopes: [], expiresAt: null })).toBe("Areas: every area · last day: none (does not expire)");
  });
});
