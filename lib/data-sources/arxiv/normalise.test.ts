import { describe, expect, it } from "vitest";
import { parseArxivFeed } from "./normalise.ts";

const feed = (entries: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>ArXiv Query</title>${entries}</feed>`;
const entry = `
  <entry>
    <id>http://arxiv.org/abs/2301.00001v1</id>
    <updated>2023-01-05T10:00:00Z</updated>
    <published>2023-01-04T18:00:00Z</published>
    <title>Attention Again
      (extended)</title>
    <summary>  We study attention.
    It works.  </summary>
    <author><name>Ada Lovelace</name></author>
    <author><name>Alan Turing</name></author>
    <link href="http://arxiv.org/abs/2301.00001v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2301.00001v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.LG"/>
  </entry>`;

describe("parseArxivFeed", () => {
  it("makes each Atom entry a record, whitespace collapsed, with the PDF link and category", () => {
    expect(parseArxivFeed(feed(entry))).toEqual([
      {
        id: "2301.00001v1",
        title: "Attention Again (extended)",
        url: "http://arxiv.org/abs/2301.00001v1",
        summary: "We study attention. It works.",
        authors: ["Ada Lovelace", "Alan Turing"],
        published: "2023-01-04T18:00:00Z",
        source: "arxiv",
        extra: { pdf: "http://arxiv.org/pdf/2301.00001v1", category: "cs.LG", updated: "2023-01-05T10:00:00Z" },
      },
    ]);
  });

  it("reads a feed without entries as none, and anything but a feed as a 502", () => {
    expect(parseArxivFeed(feed(""))).toEqual([]);
    expect(() => parseArxivFeed('{"not":"xml"}')).toThrow(/without an Atom feed/);
  });
});
