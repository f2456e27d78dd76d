import { describe, expect, it } from "vitest";
import { altTextPrompt, capAtWord, cleanAltText, CONCISE_MAX } from "./alt-text.ts";

describe("capAtWord", () => {
  it("leaves short text alone", () => {
    expect(capAtWord("A red square.", 125)).toBe("A red square.");
  });

  it("cuts after the last whole word that fits, without trailing punctuation", () => {
    expect(capAtWord("A red square, on a white page", 15)).toBe("A red square");
    expect(capAtWord("A red square on", 15)).toBe("A red square on");
  });

  it("cuts mid-word when a single word is longer than the cap", () => {
    expect(capAtWord("Supercalifragilistic", 5)).toBe("Super");
  });
});

describe("cleanAltText", () => {
  it("drops labels and quotes, folds whitespace", () => {
    expect(cleanAltText('Alt text: "A red\n square."', "detailed")).toBe("A red square.");
    expect(cleanAltText("“Opens the cart”", "functional")).toBe("Opens the cart");
  });

  it("caps only the concise style", () => {
    const long = "word ".repeat(60);
    expect(cleanAltText(long, "concise").length).toBeLessThanOrEqual(CONCISE_MAX);
    expect(cleanAltText(long, "detailed").length).toBeGreaterThan(CONCISE_MAX);
  });
});

describe("altTextPrompt", () => {
  it("asks per style and adds the context when given", () => {
    expect(altTextPrompt("concise")).toContain(`at most ${CONCISE_MAX} characters`);
    expect(altTextPrompt("functional", "the cart button")).toContain("context: the cart button");
    expect(altTextPrompt("detailed")).not.toContain("context");
  });
});
