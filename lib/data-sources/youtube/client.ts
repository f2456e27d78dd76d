import { requireCredential } from "../../upstream/credentials.ts";
import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "youtube",
  origin: "https://www.googleapis.com",
  cacheTtlMs: 30 * 60_000,
};

const key = () => requireCredential("youtube", "YOUTUBE_API_KEY");

/** A resource's snippet in the YouTube Data API v3. */
export type Snippet = {
  title: string;
  description?: string;
  channelTitle?: string;
  publishedAt?: string;
  customUrl?: string;
};
export type SearchList = { items?: Array<{ id: { videoId?: string }; snippet: Snippet }> };
export type VideoList = { items?: Array<{ id: string; snippet: Snippet; statistics?: Record<string, string> }> };
export type ChannelList = {
  items?: Array<{
    id: string;
    snippet: Snippet;
    statistics?: { subscriberCount?: string; videoCount?: string; viewCount?: string };
  }>;
};

export const searchVideos = (ctx: SourceContext, q: string, limit: number) =>
  ctx.client.get<SearchList>({
    path: "/youtube/v3/search",
    query: { part: "snippet", q, type: "video", maxResults: Math.min(limit, 50), key: key() },
  });

export const videos = (ctx: SourceContext, id: string) =>
  ctx.client.get<VideoList>({ path: "/youtube/v3/videos", query: { part: "snippet,statistics", id, key: key() } });

export const channels = (ctx: SourceContext, id: string) =>
  ctx.client.get<ChannelList>({ path: "/youtube/v3/channels", query: { part: "snippet,statistics", id, key: key() } });
