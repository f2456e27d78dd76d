import { describe, expect, it } from "vitest";
import { searchRecords, summaryView } from "./normalise.ts";

describe("wikipedia", () => {
  it("makes search hits records with plain-text snippets and page links", () => {
    const body = {
      batchcomplete: "",
      query: {
        search: [
          {
            ns: 0,
            title: "Ada Lovelace",
            pageid: 974,
            snippet: 'English <span class="searchmatch">mathematician</span> &amp; writer',
            timestamp: "2026-11-01T00:00:00Z",
          },
        ],
      },
    };
    expect(searchRecords(body)).toEqual([
      {
        id: "Ada Lovelace",
        title: "Ada Lovelace",
        url: "https://en.wikipedia.org/wiki/Ada_Lovelace",
        summary: "English mathematician & writer",
        published: "2026-11-01T00:00:00Z",
        source: "wikipedia",
        extra: { pageid: 974 },
      },
    ]);
    expect(searchRecords({})).toEqual([]);
  });

  it("shows a summary with its thumbnail's URL, linking the page when the summary names no URL", () => {
    const summary = {
      type: "standard",
      title: "Ada Lovelace",
      description: "English mathematician (1815–1852)",
      extract: "Augusta Ada King was an English mathematician.",
      thumbnail: { source: "https://upload.example/ada.jpg", width: 320, height: 400 },
      content_urls: { desktop: { page: "https://en.wikipedia.org/wiki/Ada_Lovelace" } },
    };
    expect(summaryView(summary)).toEqual({
      title: "Ada Lovelace",
      extract: "Augusta Ada King was an English mathematician.",
      thumbnail: "https://upload.example/ada.jpg",
      description: "English mathematician (1815–1852)",
      url: "https://en.wikipedia.org/wiki/Ada_Lovelace",
    });
    expect(summaryView({ title: "Analytical Engine" })).toEqual({
      title: "Analytical Engine",
      extract: "",
      thumbnail: null,
      description: null,
      url: "https://en.wikipedia.org/wiki/Analytical_Engine",
    });
  });
});
