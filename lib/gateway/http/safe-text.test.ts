import { describe, expect, it } from "vitest";
import { findUnsafeText, isUnsafeText, toSafeText } from "./safe-text.ts";

describe("isUnsafeText", () => {
  it("flags NUL and lone surrogates of either half, and passes paired surrogates and plain text", () => {
    for (const bad of ["a\u0000b", "\u0000", "Report \ud800", "\ud800x", "x\udc00", "\udc00\ud800", "😀\ud83d"])
      expect(isUnsafeText(bad)).toBe(true);
    for (const good of ["", "plain", "😀", "a😀b", "\u0001\u001f", "\ufffd", "日本語"])
      expect(isUnsafeText(good)).toBe(false);
  });
});

describe("toSafeText", () => {
  it("drops NULs, replaces lone surrogates with U+FFFD, and leaves pairs alone", () => {
    expect(toSafeText("grok\u0000x")).toBe("grokx");
    expect(toSafeText("Report \ud800 😀 \udfff")).toBe("Report \ufffd 😀 \ufffd");
    expect(encodeURIComponent(toSafeText("a\ud800"))).toBe("a%EF%BF%BD");
    const clean = "nothing to do 😀";
    expect(toSafeText(clean)).toBe(clean);
  });
});

describe("findUnsafeText", () => {
  it("names the path of the first bad string in client order, through arrays and objects", () => {
    expect(findUnsafeText({ model: "m\u0000" })).toEqual({ path: ["model"], inKey: false });
    const body = {
      requests: [
        { custom_id: "a", messages: [{ content: "ok" }] },
        { custom_id: "b\ud800", messages: [{ content: "\u0000" }] },
      ],
    };
    expect(findUnsafeText(body)).toEqual({ path: ["requests", 1, "custom_id"], inKey: false });
    expect(findUnsafeText("a\u0000")).toEqual({ path: [], inKey: false });
  });

  it("checks object keys too, and reports the object holding the key", () => {
    expect(findUnsafeText({ metadata: { "k\u0000": "v" } })).toEqual({ path: ["metadata"], inKey: true });
  });

  it("answers undefined for clean input, non-text values and uploaded files", () => {
    expect(findUnsafeText({ a: 1, b: [true, null, "x😀"], c: { d: undefined } })).toBeUndefined();
    expect(findUnsafeText({ file: new File(["\u0000"], "a\u0000.txt"), when: new Date() })).toBeUndefined();
  });

  it("walks very deep nesting without overflowing the stack", () => {
    let deep: unknown = "bad\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnsafeText(deep)?.path).toHaveLength(100_000);
  });
});
