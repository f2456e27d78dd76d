import { describe, expect, it } from "vitest";
import { secretMatcher } from "./secret-match.ts";

describe("secretMatcher", () => {
  const matches = secretMatcher("Bearer s3cret-token");

  it("accepts only the exact secret", () => {
    expect(matches("Bearer s3cret-token")).toBe(true);
    expect(matches("Bearer s3cret-tokeN")).toBe(false);
    expect(matches("Bearer s3cret-token ")).toBe(false);
  });

  it("refuses shorter, longer, empty and missing values without throwing (timingSafeEqual needs equal lengths)", () => {
    for (const given of ["Bearer s", "Bearer s3cret-token-and-more".repeat(10), "", undefined])
      expect(matches(given)).toBe(false);
  });
});
