import { describe, expect, it } from "vitest";
import { GITHUB_NAME } from "./index.ts";

describe("GITHUB_NAME", () => {
  it('is "1-100 of A-Z a-z 0-9 _ . - but not . or ..", written without a lookahead', () => {
    const meant = (s: string) => /^[A-Za-z0-9_.-]{1,100}$/.test(s) && s !== "." && s !== "..";
    // Every string of up to 4 characters over an alphabet with one of each kind, and the length bounds.
    let strings = [""];
    const all = [...strings];
    for (let n = 0; n < 4; n++) all.push(...(strings = strings.flatMap((s) => [..."a._-/ "].map((c) => s + c))));
    all.push("a".repeat(100), "a".repeat(101), `.${"a".repeat(99)}`, `..${"a".repeat(98)}`, `..${"a".repeat(99)}`);
    for (const s of all) expect(GITHUB_NAME.test(s), JSON.stringify(s)).toBe(meant(s));
  });
});
