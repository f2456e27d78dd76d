import { htmlToPlain } from "../../text/html-to-plain.ts";
import { upstreamJson } from "../../upstream/http.ts";
import { upstreamOrigin } from "../../upstream/origin.ts";
import { mastodonTags } from "./mastodon-tags.ts";

export const PLATFORMS = ["bluesky", "mastodon", "reddit"] as const;
export type Platform = (typeof PLATFORMS)[number];

/** A network's posts, and for Mastodon which of its endpoints answered (told to the caller). */
export type NetworkPosts = { posts: Post[]; via?: string };

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
export async function searchBluesky(query: string, limit: number): Promise<NetworkPosts> {
  const url = new URL(`${upstreamOrigin("bluesky", "https://public.api.bsky.app")}/xrpc/app.bsky.feed.searchPosts`);
  url.searchParams.set("q", query);
  url.searchParams.set("limit", String(Math.min(limit, 100)));
  const body = await upstreamJson<{ posts?: BlueskyPost[] }>("bluesky", url.toString());
  const posts = (body.posts ?? []).map((p): Post => {
    const rkey = p.uri.split("/").pop() ?? "";
    return {
      id: p.uri,
      platform: "bluesky",
      author: {
        handle: p.author.handle,
        name: p.author.displayName || null,
        url: `https://bsky.app/profile/${p.author.handle}`,
      },
      text: p.record.text ?? "",
      url: `https://bsky.app/profile/${p.author.handle}/post/${rkey}`,
      created_at: new Date(p.record.createdAt ?? p.indexedAt ?? 0).toISOString(),
      metrics: { likes: p.likeCount ?? 0, reposts: p.repostCount ?? 0, replies: p.replyCount ?? 0 },
    };
  });
  return { posts };
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

const toPost = (s: MastodonStatus): Post => ({
  id: s.id,
  platform: "mastodon",
  author: { handle: s.account.acct, name: s.account.display_name || null, url: s.account.url ?? null },
  text: htmlToPlain(s.content),
  url: s.url ?? s.uri,
  created_at: new Date(s.created_at).toISOString(),
  metrics: { likes: s.favourites_count ?? 0, reposts: s.reblogs_count ?? 0, replies: s.replies_count ?? 0 },
});

/**
 * Mastodon. Its full-text search (GET /api/v2/search) gives statuses only to a signed-in user, so it
 * is used with `MASTODON_ACCESS_TOKEN`; without one, the public hashtag timeline of the query's tags
 * (GET /api/v1/timelines/tag/:hashtag, `any[]` for more tags), which needs no account.
 */
export async function searchMastodon(query: string, limit: number): Promise<NetworkPosts> {
  const origin = upstreamOrigin("mastodon", "https://mastodon.social");
  const token = process.env.MASTODON_ACCESS_TOKEN?.trim();
  if (token) {
    const url = new URL(`${origin}/api/v2/search`);
    url.searchParams.set("q", query);
    url.searchParams.set("type", "statuses");
    url.searchParams.set("limit", String(Math.min(limit, 40)));
    const body = await upstreamJson<{ statuses?: MastodonStatus[] }>("mastodon", url.toString(), {
      headers: { authorization: `Bearer ${token}` },
    });
    return { posts: (body.statuses ?? []).map(toPost), via: "search (MASTODON_ACCESS_TOKEN)" };
  }
  const [tag, ...more] = mastodonTags(query);
  if (!tag) return { posts: [], via: "hashtag timeline: the query has no letters or digits to make a hashtag of" };
  const url = new URL(`${origin}/api/v1/timelines/tag/${encodeURIComponent(tag)}`);
  for (const other of more) url.searchParams.append("any[]", other);
  url.searchParams.set("limit", String(Math.min(limit, 40)));
  const statuses = await upstreamJson<MastodonStatus[]>("mastodon", url.toString());
  const tags = [tag, ...more].map((t) => `#${t}`).join(" ");
  return {
    posts: (Array.isArray(statuses) ? statuses : []).map(toPost),
    via: `hashtag timeline ${tags} (anonymous; set MASTODON_ACCESS_TOKEN for full-text search)`,
  };
}

type RedditListing = {
  data?: {
    children?: Array<{
      data: {
        id: string;
        name: string;
        title: string;
        selftext?: string;
        author: string;
        permalink: string;
        created_utc: number;
        score?: number;
        num_comments?: number;
        num_crossposts?: number;
      };
    }>;
  };
};

/** Reddit's public listing search: GET /search.json. */
export async function searchReddit(query: string, limit: number): Promise<NetworkPosts> {
  const url = new URL(`${upstreamOrigin("reddit", "https://www.reddit.com")}/search.json`);
  url.searchParams.set("q", query);
  url.searchParams.set("limit", String(Math.min(limit, 100)));
  url.searchParams.set("sort", "new");
  const body = await upstreamJson<RedditListing>("reddit", url.toString());
  const posts = (body.data?.children ?? []).map(({ data: d }): Post => ({
    id: d.name,
    platform: "reddit",
    author: { handle: d.author, name: null, url: `https://www.reddit.com/user/${d.author}` },
    text: d.selftext ? `${d.title}\n\n${d.selftext}` : d.title,
    url: `https://www.reddit.com${d.permalink}`,
    created_at: new Date(d.created_utc * 1000).toISOString(),
    metrics: { likes: d.score ?? 0, reposts: d.num_crossposts ?? 0, replies: d.num_comments ?? 0 },
  }));
  return { posts };
}

export const SEARCHERS: Record<Platform, (q: string, limit: number) => Promise<NetworkPosts>> = {
  bluesky: searchBluesky,
  mastodon: searchMastodon,
  reddit: searchReddit,
};
