import { GatewayError } from "../../errors.ts";
import type { DataSource } from "../source.ts";
import { anime, searchAnime, upstream } from "./client.ts";
import { animeRecord } from "./normalise.ts";

export const mal: DataSource = {
  name: "mal",
  description: "MyAnimeList anime catalogue (MAL_CLIENT_ID)",
  upstream,
  async search(ctx, query, limit) {
    if (query.trim().length < 3) throw new GatewayError(400, "mal needs at least 3 characters to search");
    return ((await searchAnime(ctx, query, limit)).data ?? []).map(({ node }) => animeRecord(node));
  },
  async get(ctx, id) {
    if (!/^\d+$/.test(id)) throw new GatewayError(400, "mal get takes a numeric anime id");
    return anime(ctx, id);
  },
};
