import { describe, expect, it } from "vitest";
import { normaliseIsbn } from "./isbn.ts";

describe("normaliseIsbn", () => {
  it("accepts valid ISBN-10 (with X) and ISBN-13, hyphenated or not", () => {
    expect(normaliseIsbn("0-306-40615-2")).toBe("0306406152");
    expect(normaliseIsbn("080442957X")).toBe("080442957X");
    expect(normaliseIsbn("978-0-306-40615-7")).toBe("9780306406157");
  });

  it("refuses wrong check digits, lengths and characters", () => {
    for (const bad of ["0306406153", "9780306406158", "12345", "97803064061570", "abcdefghij"])
      expect(normaliseIsbn(bad), bad).toBeNull();
  });
});
