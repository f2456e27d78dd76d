import { XMLParser } from "fast-xml-parser";
import { GatewayError } from "../../errors.ts";
import type { SearchRecord } from "../source.ts";

type Entry = {
  id?: string;
  title?: string;
  summary?: string;
  published?: string;
  updated?: string;
  author?: { name?: string } | Array<{ name?: string }>;
  link?: unknown;
  "arxiv:primary_category"?: { "@_term"?: string };
};

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_" });
const clean = (s: string | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** arXiv's API answers Atom XML; each entry becomes one record. */
export function parseArxivFeed(xml: string): SearchRecord[] {
  let feed: { feed?: { entry?: Entry | Entry[] } };
  try {
    feed = parser.parse(xml);
  } catch {
    throw new GatewayError(502, "arxiv answered with XML that could not be read");
  }
  if (!feed.feed) throw new GatewayError(502, "arxiv answered without an Atom feed");
  const entries =
    feed.feed.entry === undefined ? [] : Array.isArray(feed.feed.entry) ? feed.feed.entry : [feed.feed.entry];
  return entries.map((e) => {
    const absUrl = clean(String(e.id ?? ""));
    const id = absUrl.replace(/^https?:\/\/arxiv\.org\/abs\//, "");
    const authors = (Array.isArray(e.author) ? e.author : e.author ? [e.author] : []).map((a) => clean(a.name));
    const links = (Array.isArray(e.link) ? e.link : [e.link]) as Array<
      { "@_href"?: string; "@_title"?: string } | undefined
    >;
    return {
      id,
      title: clean(e.title),
      url: absUrl || null,
      summary: clean(e.summary) || null,
      authors,
      published: e.published ?? null,
      source: "arxiv",
      extra: {
        pdf: links.find((l) => l?.["@_title"] === "pdf")?.["@_href"] ?? null,
        category: e["arxiv:primary_category"]?.["@_term"] ?? null,
        updated: e.updated ?? null,
      },
    };
  });
}
