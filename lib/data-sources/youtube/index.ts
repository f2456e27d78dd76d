import { GatewayError } from "../../errors.ts";
import type { DataSource, SourceContext } from "../source.ts";
import { channels, searchVideos, upstream, videos } from "./client.ts";
import { channelView, videoRecords, videoView } from "./normalise.ts";

/** A channel id: UC and 22 more characters. */
export const CHANNEL_ID = /^UC[\w-]{22}$/;
/** A video id: 11 characters. */
export const VIDEO_ID = /^[\w-]{11}$/;

export async function channel(ctx: SourceContext, id: string) {
  if (!CHANNEL_ID.test(id))
    throw new GatewayError(400, "channel_id must be a YouTube channel id (UC… , 24 characters)");
  const found = channelView(await channels(ctx, id));
  if (!found) throw new GatewayError(404, `youtube has no channel ${id}`);
  return found;
}

export const youtube: DataSource = {
  name: "youtube",
  description: "YouTube Data API: video search, videos and channels (YOUTUBE_API_KEY)",
  upstream,
  search: async (ctx, query, limit) => videoRecords(await searchVideos(ctx, query, limit)),
  async get(ctx, id) {
    const found = videoView(await videos(ctx, id));
    if (!found) throw new GatewayError(404, `youtube has no video ${id}`);
    return found;
  },
};
