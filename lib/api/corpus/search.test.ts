import { describe, expect, it } from "vitest";
import { buildIndex } from "./inverted-index.ts";
import { MAX_LIMIT, searchCorpus } from "./search.ts";

const index = buildIndex([
  {
    id: "d",
    title: "D",
    author: null,
    year: 1900,
    register: "r",
    genre: "g",
    text: "of the sea ".repeat(MAX_LIMIT + 10),
  },
]);

describe("searchCorpus", () => {
  it("returns `limit` lines and the total of all matches, for words, phrases and wildcards alike", () => {
    for (const q of ["sea", "of the", "s*", "the * of"]) {
      const expected = q === "the * of" ? MAX_LIMIT + 9 : MAX_LIMIT + 10;
      const few = searchCorpus(index, q, { context: 1, limit: 3 });
      expect(few.total, q).toBe(expected);
      expect(few.results, q).toHaveLength(3);
      // A second, larger page of the same (cached) query still gets every line it asks for.
      const all = searchCorpus(index, q, { context: 1, limit: MAX_LIMIT });
      expect(all.results, q).toHaveLength(MAX_LIMIT);
      expect(all.results.slice(0, 3), q).toEqual(few.results);
    }
  });
});
