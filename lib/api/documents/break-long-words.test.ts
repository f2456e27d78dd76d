import { describe, expect, it } from "vitest";
import { breakLongWords } from "./break-long-words.ts";

// As in pdfkit's standard fonts, a line break has no width.
const oneEach = (c: string) => (c === "\n" ? 0 : 1);

describe("breakLongWords", () => {
  it("breaks only the words wider than the line, at the last character that fits", () => {
    expect(breakLongWords("abcdefg hi", 3, oneEach)).toBe("abc\ndef\ng hi");
    expect(breakLongWords("fits as is", 4, oneEach)).toBe("fits as is");
    expect(breakLongWords("  indented\tcode\n", 4, oneEach)).toBe("  inde\nnted\tcode\n");
  });

  it("goes by each character's own width", () => {
    const wide = (c: string) => (c === "W" ? 3 : oneEach(c));
    expect(breakLongWords("WWiiiW", 4, wide)).toBe("W\nWi\nii\nW");
  });

  it("keeps a no-break space inside the word, never cuts a surrogate pair, and always moves on", () => {
    expect(breakLongWords("a\u00a0b\u00a0c", 2, oneEach)).toBe("a\u00a0\nb\u00a0\nc");
    expect(breakLongWords("😀😀😀😀", 3, oneEach)).toBe("😀😀😀\n😀");
    expect(breakLongWords("abc", 0.5, oneEach)).toBe("a\nb\nc");
  });

  it("joins pieces with the soft separator only between letters and digits, where it surely breaks", () => {
    expect(breakLongWords("abcdefg", 4, oneEach, " ")).toBe("abc def g");
    expect(breakLongWords("abcd", 4, oneEach, " ")).toBe("abcd");
    expect(breakLongWords("[[[[[[[", 4, oneEach, " ")).toBe("[[[\n[[[\n[");
    expect(breakLongWords("ab,cd,ef", 3, oneEach, " ")).toBe("ab\n,c d,\nef");
  });

  it("measures each distinct character once, however long the word", () => {
    const measured: string[] = [];
    const out = breakLongWords("A".repeat(1_000_000), 50, (c) => (measured.push(c), oneEach(c)));
    expect(measured.sort()).toEqual(["\n", "A"]);
    expect(out.split("\n")).toHaveLength(20_000);
  });
});
