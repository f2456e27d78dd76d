import { describe, expect, it } from "vitest";
import { articleList } from "./normalise.ts";

describe("news article lists", () => {
  it("keep NewsAPI's total and make each article a record keyed by its URL", () => {
    const body = {
      status: "ok",
      totalResults: 37,
      articles: [
        {
          source: { id: null, name: "Example Times" },
          author: "R. Porter",
          title: "Gateways go mainstream",
          description: "A look at API gateways.",
          url: "https://news.example/gateways",
          urlToImage: null,
          publishedAt: "2026-11-20T08:00:00Z",
        },
        { source: { name: "Wire" }, title: "Top story", url: "https://news.example/top" },
      ],
    };
    expect(articleList(body)).toEqual({
      total: 37,
      articles: [
        {
          id: "https://news.example/gateways",
          title: "Gateways go mainstream",
          url: "https://news.example/gateways",
          summary: "A look at API gateways.",
          authors: ["R. Porter"],
          published: "2026-11-20T08:00:00Z",
          source: "news",
          extra: { outlet: "Example Times", image: null },
        },
        {
          id: "https://news.example/top",
          title: "Top story",
          url: "https://news.example/top",
          summary: null,
          authors: [],
          published: null,
          source: "news",
          extra: { outlet: "Wire", image: null },
        },
      ],
    });
    expect(articleList({})).toEqual({ total: 0, articles: [] });
  });
});
