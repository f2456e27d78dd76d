import { GatewayError } from "../../errors.ts";
import type { DataSource } from "../source.ts";
import { query, upstream } from "./client.ts";
import { parseArxivFeed } from "./normalise.ts";

/** An arXiv id, new style (2301.01234) or old (hep-th/9901001), with an optional version (v2). */
export const ARXIV_ID = /^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})(v\d+)?$/;

export const arxiv: DataSource = {
  name: "arxiv",
  description: "arXiv preprints: search across all fields, or one paper by its arXiv id",
  upstream,
  search: async (ctx, terms, limit) =>
    parseArxivFeed(await query(ctx, { search_query: `all:${terms}`, start: 0, max_results: limit })),
  async get(ctx, id) {
    if (!ARXIV_ID.test(id))
      throw new GatewayError(400, `'${id}' is not an arXiv id (e.g. 2301.01234 or hep-th/9901001)`);
    const [paper] = parseArxivFeed(await query(ctx, { id_list: id }));
    if (!paper || !paper.title) throw new GatewayError(404, `arxiv has no paper '${id}'`);
    return paper;
  },
};
