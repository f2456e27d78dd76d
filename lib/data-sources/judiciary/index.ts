import { GatewayError } from "../../errors.ts";
import type { DataSource } from "../source.ts";
import { cluster, searchOpinions, upstream } from "./client.ts";
import { hitRecord } from "./normalise.ts";

export const judiciary: DataSource = {
  name: "judiciary",
  description: "US court opinions from CourtListener (COURTLISTENER_TOKEN optional)",
  upstream,
  async search(ctx, query, limit) {
    // The search is sent without a count: its first page is cut to the limit.
    return ((await searchOpinions(ctx, query)).results ?? []).slice(0, limit).map(hitRecord);
  },
  async get(ctx, id) {
    if (!/^\d+$/.test(id)) throw new GatewayError(400, "judiciary get takes a numeric opinion cluster id");
    return cluster(ctx, id);
  },
};
