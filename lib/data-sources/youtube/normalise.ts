import type { SearchRecord } from "../source.ts";
import type { ChannelList, SearchList, VideoList } from "./client.ts";

const count = (n: string | undefined) => (n ? Number(n) : null);

/** The video hits of a search as records (a hit without a video id is left out). */
export const videoRecords = (body: SearchList): SearchRecord[] =>
  (body.items ?? [])
    .filter((i) => i.id.videoId)
    .map((i) => ({
      id: i.id.videoId!,
      title: i.snippet.title,
      url: `https://www.youtube.com/watch?v=${i.id.videoId}`,
      summary: i.snippet.description ?? null,
      authors: i.snippet.channelTitle ? [i.snippet.channelTitle] : [],
      published: i.snippet.publishedAt ?? null,
      source: "youtube",
    }));

/** The one video of a videos.list answer, or null when it lists none (an unknown id). */
export function videoView(body: VideoList) {
  const v = body.items?.[0];
  if (!v) return null;
  return {
    id: v.id,
    title: v.snippet.title,
    description: v.snippet.description ?? "",
    channel: v.snippet.channelTitle ?? null,
    published_at: v.snippet.publishedAt ?? null,
    statistics: v.statistics ?? {},
    url: `https://www.youtube.com/watch?v=${v.id}`,
  };
}

/** The one channel of a channels.list answer, its counts as numbers, or null when it lists none. */
export function channelView(body: ChannelList) {
  const c = body.items?.[0];
  if (!c) return null;
  return {
    id: c.id,
    title: c.snippet.title,
    description: c.snippet.description ?? "",
    custom_url: c.snippet.customUrl ?? null,
    published_at: c.snippet.publishedAt ?? null,
    subscribers: count(c.statistics?.subscriberCount),
    videos: count(c.statistics?.videoCount),
    views: count(c.statistics?.viewCount),
    url: `https://www.youtube.com/channel/${c.id}`,
  };
}
