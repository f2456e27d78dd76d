import { describe, expect, it } from "vitest";
import { splitIntoChunks } from "./chunks.ts";

describe("splitIntoChunks", () => {
  it("keeps a short text whole", () => {
    expect(splitIntoChunks("  One paragraph.\n\nAnother.  ", 100)).toEqual(["One paragraph.\n\nAnother."]);
  });

  it("packs whole paragraphs greedily up to the size", () => {
    const p = (c: string) => c.repeat(30);
    const chunks = splitIntoChunks([p("a"), p("b"), p("c")].join("\n\n"), 70);
    expect(chunks).toEqual([`${p("a")}\n\n${p("b")}`, p("c")]);
  });

  it("splits a paragraph too long at sentences, and a sentence too long at words", () => {
    const chunks = splitIntoChunks("Alpha beta gamma. Delta epsilon zeta eta theta iota kappa lambda.", 20);
    expect(chunks.every((c) => c.length <= 20)).toBe(true);
    expect(chunks[0]).toBe("Alpha beta gamma.");
    expect(chunks.join(" ")).toBe("Alpha beta gamma. Delta epsilon zeta eta theta iota kappa lambda.");
  });

  it("loses no words of a long text", () => {
    const text = Array.from({ length: 200 }, (_, i) => `Sentence ${i} of the text.`).join(" ");
    const chunks = splitIntoChunks(text, 500);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.length <= 500)).toBe(true);
    expect(chunks.join(" ")).toBe(text);
  });
});
