import { GatewayError } from "../../errors.ts";
import type { DataSource, SourceContext } from "../source.ts";
import { pageSummary, searchPages, upstream } from "./client.ts";
import { searchRecords, summaryView } from "./normalise.ts";

/** A page's REST summary. */
export async function wikipediaSummary(ctx: SourceContext, title: string) {
  if (!title.trim()) throw new GatewayError(400, "title is required");
  return summaryView(await pageSummary(ctx, title));
}

export const wikipedia: DataSource = {
  name: "wikipedia",
  description: "Wikipedia (English): full-text article search and page summaries",
  upstream,
  search: async (ctx, query, limit) => searchRecords(await searchPages(ctx, query, limit)),
  get: (ctx, id) => wikipediaSummary(ctx, id),
};
