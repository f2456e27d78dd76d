import { requireCredential } from "../../upstream/credentials.ts";
import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "mal",
  origin: "https://api.myanimelist.net",
  cacheTtlMs: 60 * 60_000,
};

const FIELDS = "id,title,main_picture,synopsis,mean,rank,start_date,end_date,media_type,status,num_episodes,genres";
const headers = () => ({ "x-mal-client-id": requireCredential("mal", "MAL_CLIENT_ID") });

/** An anime node of MyAnimeList API v2, with the fields asked for. */
export type Anime = {
  id: number;
  title: string;
  synopsis?: string;
  mean?: number;
  start_date?: string;
  media_type?: string;
  num_episodes?: number;
  main_picture?: { medium?: string };
};

export const searchAnime = (ctx: SourceContext, q: string, limit: number) =>
  ctx.client.get<{ data?: Array<{ node: Anime }> }>({
    path: "/v2/anime",
    query: { q, limit: Math.min(limit, 100), fields: FIELDS },
    headers: headers(),
  });

export const anime = (ctx: SourceContext, id: string) =>
  ctx.client.get<unknown>({ path: `/v2/anime/${id}`, query: { fields: FIELDS }, headers: headers() });
