import { describe, expect, it } from "vitest";
import { SearchQuery, searchCount, searchTerms } from "./search-query.ts";

const parse = (query: Record<string, string>) => SearchQuery.safeParse(query);

describe("SearchQuery", () => {
  it("reads the count from either form, the route's default when neither is sent", () => {
    expect(searchCount(parse({ q: "x", limit: "3" }).data!, 10)).toBe(3);
    expect(searchCount(parse({ query: "x", max_results: "2" }).data!, 10)).toBe(2);
    expect(searchCount(parse({ q: "x" }).data!, 5)).toBe(5);
    expect(searchCount(parse({ q: "x", limit: "" }).data!, 5)).toBe(5);
    expect(searchCount(parse({ q: "x", limit: "4", max_results: "4" }).data!, 10)).toBe(4);
  });

  it("refuses counts that are not whole numbers from 1 to 100, and two forms that disagree", () => {
    for (const bad of ["abc", "-1", "0", "1e308", "1.5", "101"]) {
      expect(parse({ q: "x", max_results: bad }).success, bad).toBe(false);
      expect(parse({ q: "x", limit: bad }).success, bad).toBe(false);
    }
    expect(parse({ q: "x", limit: "100" }).success).toBe(true);
    expect(() => searchCount({ limit: 3, max_results: 5 }, 10)).toThrow(/disagree/);
  });

  it("takes the terms from q or query and needs one of them", () => {
    expect(searchTerms({ q: "a" })).toBe("a");
    expect(searchTerms({ query: "b" })).toBe("b");
    expect(() => searchTerms({})).toThrow(/q \(or query\) is required/);
  });
});
