import { describe, expect, it } from "vitest";
import { startFakeBluesky, startFakeMastodon, startFakeReddit, type FakeNetwork } from "./fakes/social.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("POST /v1/social/search", () => {
  let bluesky: FakeNetwork;
  let mastodon: FakeNetwork;
  let reddit: FakeNetwork;
  const t = useGateway({
    fakes: async () =>
      ([bluesky, mastodon, reddit] = await Promise.all([
        startFakeBluesky(),
        startFakeMastodon({ token: "mastodon-token" }),
        startFakeReddit(),
      ])),
    env: () => ({
      UPSTREAM_BLUESKY_URL: bluesky.url,
      UPSTREAM_MASTODON_URL: mastodon.url,
      UPSTREAM_REDDIT_URL: reddit.url,
      MASTODON_ACCESS_TOKEN: undefined,
    }),
  });
  const search = (body: unknown) => t.post("/v1/social/search", body);

  it("searches every network by default and normalises the posts, newest first", async () => {
    const res = await search({ query: "api gateway" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.platform).toBe("all");
    expect(body.sources).toEqual({
      bluesky: { status: "ok", count: 1 },
      mastodon: {
        status: "ok",
        count: 1,
        via: "hashtag timeline #apigateway (anonymous; set MASTODON_ACCESS_TOKEN for full-text search)",
      },
      reddit: { status: "ok", count: 1 },
    });
    expect(body.results.map((p: { platform: string }) => p.platform)).toEqual(["mastodon", "bluesky", "reddit"]);
    const [toot, skeet, thread] = body.results;
    expect(toot).toEqual({
      id: "1133",
      platform: "mastodon",
      author: { handle: "grace", name: "Grace", url: "https://mastodon.social/@grace" },
      text: "Gateways & links\n\nsecond para",
      url: "https://mastodon.social/@grace/1133",
      created_at: "2026-11-21T09:30:00.000Z",
      metrics: { likes: 4, reposts: 2, replies: 0 },
    });
    expect(skeet).toMatchObject({
      url: "https://bsky.app/profile/ada.bsky.social/post/3kxyz",
      author: { handle: "ada.bsky.social" },
      metrics: { likes: 12, reposts: 3, replies: 1 },
    });
    expect(thread).toMatchObject({
      id: "t3_abc1",
      text: "API gateways compared\n\nWhich one?",
      url: "https://www.reddit.com/r/webdev/comments/abc1/api_gateways_compared/",
    });
    expect(bluesky.queries.at(-1)).toBe("api gateway");
  });

  it("finds Mastodon posts without a token through hashtag timelines, and through search with MASTODON_ACCESS_TOKEN", async () => {
    const tagged = await (await search({ query: "#a11y #aac", platform: "mastodon" })).json();
    expect(tagged.results.map((p: { id: string }) => p.id)).toEqual(["1133"]);
    expect(tagged.sources.mastodon.via).toMatch(/^hashtag timeline #a11y #aac/);
    expect(mastodon.queries.at(-1)).toBe("#a11y #aac");
    const nothing = await (await search({ query: "unrelated words", platform: "mastodon" })).json();
    expect(nothing).toMatchObject({ count: 0, sources: { mastodon: { status: "ok", count: 0 } } });
    process.env.MASTODON_ACCESS_TOKEN = "mastodon-token";
    try {
      const full = await (await search({ query: "gateways links", platform: "mastodon" })).json();
      expect(full.results.map((p: { id: string }) => p.id)).toEqual(["1133"]);
      expect(full.sources.mastodon.via).toBe("search (MASTODON_ACCESS_TOKEN)");
      expect(mastodon.queries.at(-1)).toBe("gateways links");
      process.env.MASTODON_ACCESS_TOKEN = "revoked";
      const refused = await search({ query: "gateways", platform: "mastodon" });
      expect(refused.status).toBe(502);
      expect((await refused.json()).error).toMatch(/mastodon rejected the gateway's credentials/);
    } finally {
      delete process.env.MASTODON_ACCESS_TOKEN;
    }
  });

  it("searches one network and honours limit", async () => {
    const body = await (await search({ query: "x", platform: "bluesky", limit: 1 })).json();
    expect(body.results).toHaveLength(1);
    expect(Object.keys(body.sources)).toEqual(["bluesky"]);
  });

  it("reports a failing network without failing the others, and fails when it was the only one", async () => {
    const down = await startFakeMastodon({ fail: true });
    process.env.UPSTREAM_MASTODON_URL = down.url;
    try {
      const all = await (await search({ query: "x" })).json();
      expect(all.sources.mastodon).toEqual({ status: "error", count: 0, error: "mastodon failed (503)" });
      expect(all.results.length).toBe(2);
      const only = await search({ query: "x", platform: "mastodon" });
      expect(only.status).toBe(502);
    } finally {
      process.env.UPSTREAM_MASTODON_URL = mastodon.url;
      await down.close();
    }
  });

  it("validates the request", async () => {
    expect((await search({ platform: "bluesky" })).status).toBe(400);
    expect((await search({ query: "x", platform: "myspace" })).status).toBe(400);
    expect((await search({ query: "x", limit: 1000 })).status).toBe(400);
  });
});
