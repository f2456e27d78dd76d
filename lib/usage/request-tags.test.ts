import { describe, expect, it } from "vitest";
import { parseTags, tagFilter } from "./request-tags.ts";

describe("parseTags", () => {
  it("reads a JSON object of short values, numbers and booleans as text", () => {
    expect(parseTags('{"user": "u-1", "session.id": "s_9", "attempt": 2, "beta": false}')).toEqual({
      tags: { user: "u-1", "session.id": "s_9", attempt: "2", beta: "false" },
    });
  });

  it("refuses what is not a small flat object of named values, saying what it must be", () => {
    const refused = [
      "{not json",
      "[1, 2]",
      '"text"',
      '{"nested": {"a": 1}}',
      '{"bad name": "x"}',
      '{"a:b": "x"}',
      `{"long": "${"x".repeat(257)}"}`,
      JSON.stringify(Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`t${i}`, "v"]))),
      " ".repeat(5000),
    ];
    for (const header of refused)
      expect(parseTags(header)).toMatchObject({ problem: expect.stringContaining("x-gateway-metadata") });
  });
});

describe("tagFilter", () => {
  it("reads name:value, the value after the first colon", () => {
    expect(tagFilter("feature:search")).toEqual({ name: "feature", value: "search" });
    expect(tagFilter(" url : https://x.test/a ")).toEqual({ name: "url", value: "https://x.test/a" });
    expect(tagFilter("feature")).toBeUndefined();
    expect(tagFilter("bad name:x")).toBeUndefined();
  });
});
