import { describe, expect, it } from "vitest";
import { channelView, videoRecords, videoView } from "./normalise.ts";

const snippet = {
  publishedAt: "2026-01-01T00:00:00Z",
  title: "A talk on gateways",
  description: "Gateways explained",
  channelTitle: "Tech Talks",
};

describe("youtube", () => {
  it("makes a search's videos records, leaving out hits that are not videos", () => {
    const body = {
      items: [
        { id: { kind: "youtube#video", videoId: "dQw4w9WgXcQ" }, snippet },
        { id: { kind: "youtube#channel", channelId: "UC_x5XG1OV2P6uZZ5FSM9Ttw" }, snippet },
      ],
    };
    expect(videoRecords(body)).toEqual([
      {
        id: "dQw4w9WgXcQ",
        title: "A talk on gateways",
        url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        summary: "Gateways explained",
        authors: ["Tech Talks"],
        published: "2026-01-01T00:00:00Z",
        source: "youtube",
      },
    ]);
  });

  it("shows the listed video, and null for an empty list (an unknown id)", () => {
    const body = { items: [{ id: "dQw4w9WgXcQ", snippet, statistics: { viewCount: "12345" } }] };
    expect(videoView(body)).toEqual({
      id: "dQw4w9WgXcQ",
      title: "A talk on gateways",
      description: "Gateways explained",
      channel: "Tech Talks",
      published_at: "2026-01-01T00:00:00Z",
      statistics: { viewCount: "12345" },
      url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    });
    expect(videoView({ items: [] })).toBeNull();
  });

  it("shows a channel's counts as numbers, null where the API hides them", () => {
    const body = {
      items: [
        {
          id: "UC_x5XG1OV2P6uZZ5FSM9Ttw",
          snippet: { title: "Google for Developers", customUrl: "@googledevelopers" },
          statistics: { videoCount: "6000", viewCount: "300000000" },
        },
      ],
    };
    expect(channelView(body)).toMatchObject({
      custom_url: "@googledevelopers",
      description: "",
      subscribers: null,
      videos: 6000,
      views: 300000000,
      url: "https://www.youtube.com/channel/UC_x5XG1OV2P6uZZ5FSM9Ttw",
    });
    expect(channelView({})).toBeNull();
  });
});
