import { describe, expect, it } from "vitest";
import { lowerText, normaliseKeyword, tokenise } from "./normalise.ts";

describe("normaliseKeyword", () => {
  it("lower-cases, drops accents and turns punctuation runs into one space", () => {
    expect(normaliseKeyword("Man: Red-Hair")).toBe("man red hair");
    expect(normaliseKeyword("  Café  au   lait ")).toBe("cafe au lait");
    expect(normaliseKeyword("don’t")).toBe("don't");
    expect(normaliseKeyword("'quoted'")).toBe("quoted");
    expect(normaliseKeyword("?!")).toBe("");
  });

  it("keeps letters of every script, so non-Latin queries stay distinct", () => {
    expect(normaliseKeyword("Собака!")).toBe("собака");
    expect(normaliseKeyword("كَلْب")).toBe("كلب");
    expect(normaliseKeyword("강아지")).toBe("강아지");
    expect(normaliseKeyword("狗 猫")).toBe("狗 猫");
  });
});

describe("tokenise", () => {
  it("splits a sentence into lower-cased words without punctuation", () => {
    expect(tokenise("I want ice-cream, please!  Don't STOP.")).toEqual([
      "i",
      "want",
      "ice",
      "cream",
      "please",
      "don't",
      "stop",
    ]);
    expect(tokenise("Good morning, 2 dogs")).toEqual(["good", "morning", "2", "dogs"]);
    expect(tokenise(" ... ")).toEqual([]);
  });

  it("keeps accents, which are part of the spelling a reader and ARASAAC expect", () => {
    expect(tokenise("Él come CAFÉ, naïve Straße")).toEqual(["él", "come", "café", "naïve", "straße"]);
    expect(tokenise("Cafe\u0301")).toEqual(["café"]);
  });
});

describe("lowerText", () => {
  it("lower-cases and drops punctuation, keeping composed accents but not stray marks", () => {
    expect(lowerText("  Dog! ")).toBe("dog");
    expect(lowerText("Ice-Cream?")).toBe("ice cream");
    expect(lowerText("Camión")).toBe("camión");
    expect(lowerText("DON’T 'stop'")).toBe("don't stop");
    expect(lowerText("İstanbul")).toBe("istanbul");
    expect(lowerText("كَلْب")).toBe("كلب");
  });
});
