import { htmlToPlain } from "../../text/html-to-plain.ts";
import { upstreamJson } from "../../upstream/http.ts";
import { upstreamOrigin } from "../../upstream/origin.ts";

export const PLATFORMS = ["bluesky", "mastodon", "reddit"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** One post, the same shape whichever network it came from. */
export type Post = {
  id: string;
  platform: Platform;
  author: { handle: string; name: string | null; url: string | null };
  text: string;
  url: string;
  created_at: string;
  metrics: { likes: number; reposts: number; replies: number };
};

type BlueskyPost = {
  uri: string;
  author: { handle: string; displayName?: string };
  record: { text?: string; createdAt?: string };
  indexedAt?: string;
  likeCount?: number;
  repostCount?: number;
  replyCount?: number;
};

/** Bluesky's public AppView: GET /xrpc/app.bsky.feed.searchPosts. */
export async function searchBluesky(query: string, limit: number): Promise<Post[]> {
  const url = new URL(`${upstreamOrigin("bluesky", "https://public.api.bsky.app")}/xrpc/app.bsky.feed.searchPosts`);
  url.searchParams.set("q", query);
  url.searchParams.set("limit", String(Math.min(limit, 100)));
  const body = await upstreamJson<{ posts?: BlueskyPost[] }>("bluesky", url.toString());
  return (body.posts ?? []).map((p) => {
    const rkey = p.uri.split("/").pop() ?? "";
    return {
      id: p.uri,
      platform: "bluesky",
      author: { handle: p.author.handle, name: p.author.displayName || null, url: `https://bsky.app/profile/${p.author.handle}` },
      text: p.record.text ?? "",
      url: `https://bsky.app/profile/${p.author.handle}/post/${rkey}`,
      created_at: new Date(p.record.createdAt ?? p.indexedAt ?? 0).toISOString(),
      metrics: { likes: p.likeCount ?? 0, reposts: p.repostCount ?? 0, replies: p.replyCount ?? 0 },
    };
  });
}

type MastodonStatus = {
  id: string;
  url: string | null;
  uri: string;
  created_at: string;
  content: string;
  account: { acct: string; display_name?: string; url?: string };
  favourites_count?: number;
  reblogs_count?: number;
  replies_count?: number;
};

/** A Mastodon server's search: GET /api/v2/search?type=statuses. */
export async function searchMastodon(query: string, limit: number): Promise<Post[]> {
  const url = new URL(`${upstreamOrigin("mastodon", "https://mastodon.social")}/api/v2/search`);
  url.searchParams.set("q", query);
  url.searchParams.set("type", "statuses");
  url.searchParams.set("limit", String(Math.min(limit, 40)));
  const body = await upstreamJson<{ statuses?: MastodonStatus[] }>("mastodon", url.toString());
  return (body.statuses ?? []).map((s) => ({
    id: s.id,
    platform: "mastodon",
    author: { handle: s.account.acct, name: s.account.display_name || null, url: s.account.url ?? null },
    text: htmlToPlain(s.content),
    url: s.url ?? s.uri,
    created_at: new Date(s.created_at).toISOString(),
    metrics: { likes: s.favourites_count ?? 0, reposts: s.reblogs_count ?? 0, replies: s.replies_count ?? 0 },
  }));
}

type RedditListing = {
  data?: { children?: Array<{ data: { id: string; name: string; title: string; selftext?: string; author: string; permalink: string; created_utc: number; score?: number; num_comments?: number; num_crossposts?: number } }> };
};

/** Reddit's public listing search: GET /search.json. */
export async function searchReddit(query: string, limit: number): Promise<Post[]> {
  const url = new URL(`${upstreamOrigin("reddit", "https://www.reddit.com")}/search.json`);
  url.searchParams.set("q", query);
  url.searchParams.set("limit", String(Math.min(limit, 100)));
  url.searchParams.set("sort", "new");
  const body = await upstreamJson<RedditListing>("reddit", url.toString());
  return (body.data?.children ?? []).map(({ data: d }) => ({
    id: d.name,
    platform: "reddit",
    author: { handle: d.author, name: null, url: `https://www.reddit.com/user/${d.author}` },
    text: d.selftext ? `${d.title}\n\n${d.selftext}` : d.title,
    url: `https://www.reddit.com${d.permalink}`,
    created_at: new Date(d.created_utc * 1000).toISOString(),
    metrics: { likes: d.score ?? 0, reposts: d.num_crossposts ?? 0, replies: d.num_comments ?? 0 },
  }));
}

export const SEARCHERS: Record<Platform, (q: string, limit: number) => Promise<Post[]>> = {
  bluesky: searchBluesky,
  mastodon: searchMastodon,
  reddit: searchReddit,
};
