import { Hono } from "hono";
import { listen } from "../support/listen.ts";

export type FakeNetwork = { url: string; queries: string[]; close(): Promise<void> };

async function start(app: Hono, queries: string[]): Promise<FakeNetwork> {
  const { url, close } = await listen(app.fetch);
  return { url, queries, close };
}

/** Bluesky AppView's app.bsky.feed.searchPosts (lexicon output: posts of PostView). */
export function startFakeBluesky(): Promise<FakeNetwork> {
  const queries: string[] = [];
  const app = new Hono();
  app.get("/xrpc/app.bsky.feed.searchPosts", (c) => {
    queries.push(c.req.query("q") ?? "");
    const limit = Number(c.req.query("limit") ?? 25);
    if (limit > 100) return c.json({ error: "InvalidRequest", message: "limit must be <= 100" }, 400);
    return c.json({
      hitsTotal: 2,
      posts: [
        {
          uri: "at://did:plc:abc/app.bsky.feed.post/3kxyz",
          cid: "bafy1",
          author: { did: "did:plc:abc", handle: "ada.bsky.social", displayName: "Ada" },
          record: {
            $type: "app.bsky.feed.post",
            text: "Accessible gateways are great",
            createdAt: "2026-11-20T10:00:00.000Z",
          },
          indexedAt: "2026-11-20T10:00:01.000Z",
          likeCount: 12,
          repostCount: 3,
          replyCount: 1,
        },
      ].slice(0, limit),
    });
  });
  return start(app, queries);
}

const TOOT = {
  id: "1133",
  uri: "https://mastodon.social/users/grace/statuses/1133",
  url: "https://mastodon.social/@grace/1133",
  created_at: "2026-11-21T09:30:00.000Z",
  content: '<p>Gateways &amp; <a href="https://x">links</a></p><p>second para</p>',
  account: { id: "9", acct: "grace", display_name: "Grace", url: "https://mastodon.social/@grace" },
  tags: [
    { name: "apigateway", url: "https://mastodon.social/tags/apigateway" },
    { name: "a11y", url: "https://mastodon.social/tags/a11y" },
  ],
  favourites_count: 4,
  reblogs_count: 2,
  replies_count: 0,
};

/**
 * Mastodon as a real server answers: GET /api/v2/search finds statuses only for a signed-in user
 * (no bearer token: `statuses: []`; a wrong one: 401), while GET /api/v1/timelines/tag/:hashtag
 * (with `any[]`) is public. `queries` records the search terms, or `#tag` for timelines.
 */
export function startFakeMastodon(options: { fail?: boolean; token?: string } = {}): Promise<FakeNetwork> {
  const queries: string[] = [];
  const app = new Hono();
  app.use(async (c, next) => {
    if (options.fail) return c.json({ error: "Service unavailable" }, 503);
    await next();
  });
  app.get("/api/v2/search", (c) => {
    queries.push(c.req.query("q") ?? "");
    const auth = c.req.header("authorization");
    if (auth && auth !== `Bearer ${options.token}`) return c.json({ error: "The access token is invalid" }, 401);
    return c.json({ accounts: [], hashtags: [], statuses: auth ? [TOOT] : [] });
  });
  app.get("/api/v1/timelines/tag/:hashtag", (c) => {
    const wanted = [c.req.param("hashtag"), ...(c.req.queries("any[]") ?? [])].map((t) => t.toLowerCase());
    queries.push(wanted.map((t) => `#${t}`).join(" "));
    const limit = Number(c.req.query("limit") ?? 20);
    if (limit > 40) return c.json({ error: "limit must be at most 40" }, 422);
    return c.json([TOOT].filter((s) => s.tags.some((t) => wanted.includes(t.name))).slice(0, limit));
  });
  return start(app, queries);
}

/** Reddit's GET /search.json listing. */
export function startFakeReddit(): Promise<FakeNetwork> {
  const queries: string[] = [];
  const app = new Hono();
  app.get("/search.json", (c) => {
    queries.push(c.req.query("q") ?? "");
    return c.json({
      kind: "Listing",
      data: {
        after: null,
        children: [
          {
            kind: "t3",
            data: {
              id: "abc1",
              name: "t3_abc1",
              title: "API gateways compared",
              selftext: "Which one?",
              author: "linus",
              permalink: "/r/webdev/comments/abc1/api_gateways_compared/",
              created_utc: 1763200000,
              score: 42,
              num_comments: 7,
              num_crossposts: 1,
              subreddit: "webdev",
            },
          },
        ],
      },
    });
  });
  return start(app, queries);
}
