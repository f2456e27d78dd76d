import { GatewayError } from "../../errors.ts";
import { requireCredential } from "../../upstream/credentials.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

const key = () => requireCredential("youtube", "YOUTUBE_API_KEY");
type Snippet = { title: string; description?: string; channelTitle?: string; publishedAt?: string; customUrl?: string };

/** A channel id: UC and 22 more characters. */
export const CHANNEL_ID = /^UC[\w-]{22}$/;
/** A video id: 11 characters. */
export const VIDEO_ID = /^[\w-]{11}$/;

export async function channel(ctx: SourceContext, id: string) {
  if (!CHANNEL_ID.test(id))
    throw new GatewayError(400, "channel_id must be a YouTube channel id (UC… , 24 characters)");
  const body = await ctx.client.get<{
    items?: Array<{
      id: string;
      snippet: Snippet;
      statistics?: { subscriberCount?: string; videoCount?: string; viewCount?: string };
    }>;
  }>({ path: "/youtube/v3/channels", query: { part: "snippet,statistics", id, key: key() } });
  const c = body.items?.[0];
  if (!c) throw new GatewayError(404, `youtube has no channel ${id}`);
  return {
    id: c.id,
    title: c.snippet.title,
    description: c.snippet.description ?? "",
    custom_url: c.snippet.customUrl ?? null,
    published_at: c.snippet.publishedAt ?? null,
    subscribers: c.statistics?.subscriberCount ? Number(c.statistics.subscriberCount) : null,
    videos: c.statistics?.videoCount ? Number(c.statistics.videoCount) : null,
    views: c.statistics?.viewCount ? Number(c.statistics.viewCount) : null,
    url: `https://www.youtube.com/channel/${c.id}`,
  };
}

export const youtube: DataSource = {
  name: "youtube",
  description: "YouTube Data API: video search, videos and channels (YOUTUBE_API_KEY)",
  upstream: { name: "youtube", origin: "https://www.googleapis.com", cacheTtlMs: 30 * 60_000 },
  async search(ctx, query, limit) {
    const body = await ctx.client.get<{ items?: Array<{ id: { videoId?: string }; snippet: Snippet }> }>({
      path: "/youtube/v3/search",
      query: { part: "snippet", q: query, type: "video", maxResults: Math.min(limit, 50), key: key() },
    });
    return (body.items ?? [])
      .filter((i) => i.id.videoId)
      .map((i): SearchRecord => ({
        id: i.id.videoId!,
        title: i.snippet.title,
        url: `https://www.youtube.com/watch?v=${i.id.videoId}`,
        summary: i.snippet.description ?? null,
        authors: i.snippet.channelTitle ? [i.snippet.channelTitle] : [],
        published: i.snippet.publishedAt ?? null,
        source: "youtube",
      }));
  },
  async get(ctx, id) {
    const body = await ctx.client.get<{
      items?: Array<{ id: string; snippet: Snippet; statistics?: Record<string, string> }>;
    }>({ path: "/youtube/v3/videos", query: { part: "snippet,statistics", id, key: key() } });
    const v = body.items?.[0];
    if (!v) throw new GatewayError(404, `youtube has no video ${id}`);
    return {
      id: v.id,
      title: v.snippet.title,
      description: v.snippet.description ?? "",
      channel: v.snippet.channelTitle ?? null,
      published_at: v.snippet.publishedAt ?? null,
      statistics: v.statistics ?? {},
      url: `https://www.youtube.com/watch?v=${v.id}`,
    };
  },
};
