import { describe, expect, it } from "vitest";
import { bulletsOf, countWords, cutAtSentence, cutBullets, limitWords } from "./word-limit.ts";

describe("countWords", () => {
  it("counts runs holding a letter or digit, not bullet markers", () => {
    expect(countWords("- one two\n- 3 four")).toBe(4);
    expect(countWords("  ")).toBe(0);
  });
});

describe("cutAtSentence", () => {
  const text = "First sentence has five words. Second has four words! Third is here?";
  it("keeps text within the limit as it is", () => {
    expect(cutAtSentence(`  ${text} `, 20)).toBe(text);
  });
  it("keeps the whole sentences that fit", () => {
    expect(cutAtSentence(text, 11)).toBe("First sentence has five words. Second has four words!");
    expect(cutAtSentence(text, 8)).toBe("First sentence has five words.");
  });
  it("cuts a first sentence longer than the limit at a word, with an ellipsis", () => {
    expect(cutAtSentence(text, 3)).toBe("First sentence has…");
  });
});

describe("bulletsOf", () => {
  it("strips -, *, • and numbered markers and drops empty lines", () => {
    expect(bulletsOf("- a b\n\n* c\n• d\n2. e\n3) f")).toEqual(["a b", "c", "d", "e", "f"]);
  });
  it("turns a single paragraph into one bullet per sentence", () => {
    expect(bulletsOf("One thing. Another thing.")).toEqual(["One thing.", "Another thing."]);
  });
});

describe("cutBullets and limitWords", () => {
  it("drops whole bullets from the end", () => {
    expect(cutBullets(["one two three", "four five", "six"], 5)).toBe("- one two three\n- four five");
    expect(cutBullets(["one two three", "four five", "six"], 4)).toBe("- one two three");
  });
  it("cuts a first bullet longer than the limit", () => {
    expect(cutBullets(["Short start. Then a much longer tail of words."], 3)).toBe("- Short start.");
  });
  it("normalises bullets to '- ' lines in bullet style, and cuts prose in paragraph style", () => {
    expect(limitWords("* a\n* b", 10, "bullet")).toBe("- a\n- b");
    expect(limitWords("A b c. D e f.", 4, "paragraph")).toBe("A b c.");
  });
});
