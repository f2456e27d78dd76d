import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normaliseWord, tokenise } from "./tokenise.ts";

const words = (text: string) => tokenise(text).map((t) => t.norm);

describe("tokenise", () => {
  it("splits on anything that is not a letter, folds case, and keeps offsets into the original text", () => {
    const text = "The cat's  hat, (1961) ice-cream!";
    const tokens = tokenise(text);
    expect(tokens.map((t) => t.norm)).toEqual(["the", "cat's", "hat", "ice", "cream"]);
    expect(tokens.map((t) => text.slice(t.start, t.end))).toEqual(["The", "cat's", "hat", "ice", "cream"]);
  });

  it("joins an apostrophe only between letters, and folds the typographic one", () => {
    expect(words("don’t 'tis o'er the dogs' bones")).toEqual(["don't", "tis", "o'er", "the", "dogs", "bones"]);
    expect(normaliseWord("Don’T")).toBe("don't");
  });

  it("treats Old English letters and accented letters as letters", () => {
    expect(words("Hwæt! Wē Gār-Dena in ġēardagum, þēodcyninga þrym")).toEqual([
      "hwæt",
      "wē",
      "gār",
      "dena",
      "in",
      "ġēardagum",
      "þēodcyninga",
      "þrym",
    ]);
  });

  it("counts every shipped document exactly as documents.json's words column does", () => {
    const dir = path.join(import.meta.dirname, "data");
    const docs = JSON.parse(fs.readFileSync(path.join(dir, "documents.json"), "utf8")) as {
      file: string;
      words: number;
    }[];
    expect(docs).toHaveLength(144);
    const mismatched = docs.filter((d) => tokenise(fs.readFileSync(path.join(dir, d.file), "utf8")).length !== d.words);
    expect(mismatched.map((d) => d.file)).toEqual([]);
  });
});
