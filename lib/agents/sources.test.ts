import { describe, expect, it } from "vitest";
import { dedupeSources, sourcesFrom } from "./sources.ts";

describe("sourcesFrom", () => {
  it("reads a search tool's results, each item's own source first", () => {
    const result = {
      source: "arxiv",
      query: "attention",
      count: 2,
      results: [
        { id: "1", title: "Attention Again", url: "http://arxiv.org/abs/2301.00001v1", source: "arxiv", summary: "x" },
        { id: "2", title: "No Link", url: null },
      ],
    };
    expect(sourcesFrom(result, "arxiv")).toEqual([
      { title: "Attention Again", url: "http://arxiv.org/abs/2301.00001v1", source: "arxiv" },
      { title: "No Link", source: "arxiv" },
    ]);
  });

  it("reads a single item, a bare list, and a repository's name beside its address", () => {
    expect(
      sourcesFrom({ title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace" }, "wikipedia"),
    ).toEqual([{ title: "Ada Lovelace", url: "https://en.wikipedia.org/wiki/Ada_Lovelace", source: "wikipedia" }]);
    expect(sourcesFrom([{ title: "A" }, { title: "B", link: "https://b.example/" }], "news")).toEqual([
      { title: "A", source: "news" },
      { title: "B", url: "https://b.example/", source: "news" },
    ]);
    expect(sourcesFrom({ name: "hono", html_url: "https://github.com/honojs/hono" }, "github")).toEqual([
      { title: "hono", url: "https://github.com/honojs/hono", source: "github" },
    ]);
  });

  it("ignores what is not a citation: no title, names alone, non-web links, scalars", () => {
    expect(sourcesFrom({ temperature: 3, name: "Oslo" }, "weather")).toEqual([]);
    expect(sourcesFrom({ title: "X", url: "javascript:alert(1)" }, "t")).toEqual([{ title: "X", source: "t" }]);
    expect(sourcesFrom("text", "t")).toEqual([]);
    expect(sourcesFrom(null, "t")).toEqual([]);
  });

  it("stops at 50 items and at a few levels deep", () => {
    const many = { results: Array.from({ length: 80 }, (_, i) => ({ title: `T${i}` })) };
    expect(sourcesFrom(many, "t")).toHaveLength(50);
    expect(sourcesFrom({ results: [[[[{ title: "deep" }]]]] }, "t")).toEqual([]);
  });
});

describe("dedupeSources", () => {
  it("keeps each address once (trailing slash and case ignored), else each title once; first wins", () => {
    expect(
      dedupeSources([
        { title: "A", url: "https://a.example/x/", source: "s1" },
        { title: "A again", url: "https://A.example/x", source: "s2" },
        { title: "Same  Title", source: "s1" },
        { title: "same title", source: "s2" },
        { title: "Same Title", url: "https://c.example", source: "s3" },
      ]),
    ).toEqual([
      { title: "A", url: "https://a.example/x/", source: "s1" },
      { title: "Same  Title", source: "s1" },
      { title: "Same Title", url: "https://c.example", source: "s3" },
    ]);
  });
});
