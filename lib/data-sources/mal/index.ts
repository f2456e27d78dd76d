import { GatewayError } from "../../errors.ts";
import { requireCredential } from "../../upstream/credentials.ts";
import type { DataSource, SearchRecord } from "../source.ts";

const FIELDS = "id,title,main_picture,synopsis,mean,rank,start_date,end_date,media_type,status,num_episodes,genres";
const headers = () => ({ "x-mal-client-id": requireCredential("mal", "MAL_CLIENT_ID") });
type Anime = {
  id: number;
  title: string;
  synopsis?: string;
  mean?: number;
  start_date?: string;
  media_type?: string;
  num_episodes?: number;
  main_picture?: { medium?: string };
};

export const mal: DataSource = {
  name: "mal",
  description: "MyAnimeList anime catalogue (MAL_CLIENT_ID)",
  upstream: { name: "mal", origin: "https://api.myanimelist.net", cacheTtlMs: 60 * 60_000 },
  async search(ctx, query, limit) {
    if (query.trim().length < 3) throw new GatewayError(400, "mal needs at least 3 characters to search");
    const body = await ctx.client.get<{ data?: Array<{ node: Anime }> }>({
      path: "/v2/anime",
      query: { q: query, limit: Math.min(limit, 100), fields: FIELDS },
      headers: headers(),
    });
    return (body.data ?? []).map(({ node: a }): SearchRecord => ({
      id: String(a.id),
      title: a.title,
      url: `https://myanimelist.net/anime/${a.id}`,
      summary: a.synopsis ?? null,
      published: a.start_date ?? null,
      source: "mal",
      extra: {
        score: a.mean ?? null,
        type: a.media_type ?? null,
        episodes: a.num_episodes ?? null,
        image: a.main_picture?.medium ?? null,
      },
    }));
  },
  async get(ctx, id) {
    if (!/^\d+$/.test(id)) throw new GatewayError(400, "mal get takes a numeric anime id");
    return ctx.client.get({ path: `/v2/anime/${id}`, query: { fields: FIELDS }, headers: headers() });
  },
};
