import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = { name: "arxiv", origin: "https://export.arxiv.org", cacheTtlMs: 30 * 60_000 };

/** arXiv's query API, which answers an Atom feed (XML text). */
export const query = (
  ctx: SourceContext,
  params: { search_query: string; start: number; max_results: number } | { id_list: string },
) => ctx.client.get<string>({ path: "/api/query", query: params, responseType: "text" });
