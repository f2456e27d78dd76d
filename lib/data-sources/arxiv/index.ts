import { XMLParser } from "fast-xml-parser";
import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

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

/** An arXiv id, new style (2301.01234) or old (hep-th/9901001), with an optional version (v2). */
export const ARXIV_ID = /^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})(v\d+)?$/;

export const arxiv: DataSource = {
  name: "arxiv",
  description: "arXiv preprints: search across all fields, or one paper by its arXiv id",
  upstream: { name: "arxiv", origin: "https://export.arxiv.org", cacheTtlMs: 30 * 60_000 },
  async search(ctx, query, limit) {
    const xml = await ctx.client.get<string>({
      path: "/api/query",
      query: { search_query: `all:${query}`, start: 0, max_results: limit },
      responseType: "text",
    });
    return parseArxivFeed(xml);
  },
  async get(ctx: SourceContext, id: string) {
    if (!ARXIV_ID.test(id))
      throw new GatewayError(400, `'${id}' is not an arXiv id (e.g. 2301.01234 or hep-th/9901001)`);
    const [paper] = parseArxivFeed(
      await ctx.client.get<string>({ path: "/api/query", query: { id_list: id }, responseType: "text" }),
    );
    if (!paper || !paper.title) throw new GatewayError(404, `arxiv has no paper '${id}'`);
    return paper;
  },
};
