import { describe, expect, it } from "vitest";
import { decodeBase64 } from "./base64.ts";

describe("decodeBase64", () => {
  const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 10]);
  const text = bytes.toString("base64");

  it("decodes plain, data: URL, unpadded and line-wrapped base64", () => {
    expect(decodeBase64(text, "x")).toEqual(bytes);
    expect(decodeBase64(`data:image/png;base64,${text}`, "x")).toEqual(bytes);
    expect(decodeBase64(text.replace(/=+$/, ""), "x")).toEqual(bytes);
    expect(decodeBase64(`${text.slice(0, 4)}\n${text.slice(4)}`, "x")).toEqual(bytes);
    expect(decodeBase64(bytes.toString("base64url"), "x")).toEqual(bytes);
  });

  it("refuses text that is not base64", () => {
    for (const bad of ["", "!!!!", "abc$def=", "a", "hello world!", "data:image/png;base64,"]) {
      expect(() => decodeBase64(bad, "image"), JSON.stringify(bad)).toThrow(/image must be base64-encoded data/);
    }
  });
});
