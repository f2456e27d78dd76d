import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { PLATFORMS, SEARCHERS, type Platform, type Post } from "./platforms.ts";

const SearchBody = z.object({
  query: z.string().trim().min(1).max(500),
  platform: z.enum([...PLATFORMS, "all"]).default("all"),
  limit: z.number().int().min(1).max(100).default(20),
});

const PostSchema = z
  .object({
    id: z.string(),
    platform: z.enum(PLATFORMS),
    author: z.object({ handle: z.string(), name: z.string().nullable(), url: z.string().nullable() }),
    text: z.string(),
    url: z.string(),
    created_at: z.string(),
    metrics: z.object({ likes: z.number().int(), reposts: z.number().int(), replies: z.number().int() }),
  })
  .openapi("SocialPost");

const search = gatewayRoute("key", {
  method: "post",
  path: "/v1/social/search",
  summary: "Search public posts on Bluesky, Mastodon and Reddit",
  tags: ["Social"],
  request: jsonRequest(SearchBody),
  responses: {
    200: jsonResponse(
      z.object({
        query: z.string(),
        platform: z.string(),
        count: z.number().int(),
        results: z.array(PostSchema),
        sources: z.record(
          z.string(),
          z.object({
            status: z.enum(["ok", "error"]),
            count: z.number().int(),
            error: z.string().optional(),
            via: z.string().optional().openapi({
              description: "Mastodon: the endpoint used (search with MASTODON_ACCESS_TOKEN, else hashtag timeline)",
            }),
          }),
        ),
      }),
      "Posts, newest first, with each network's outcome",
    ),
    ...keyedErrors,
  },
});

const handleSearch: Handler<typeof search> = async (_c, { body: { query, platform, limit } }) => {
  const chosen: Platform[] = platform === "all" ? [...PLATFORMS] : [platform];
  const settled = await Promise.allSettled(chosen.map((p) => SEARCHERS[p](query, limit)));
  // One network down never hides the others; a single chosen network that fails is an error.
  if (chosen.length === 1 && settled[0]!.status === "rejected") throw settled[0]!.reason;
  const results: Post[] = [];
  const sources: Record<string, { status: "ok" | "error"; count: number; error?: string; via?: string }> = {};
  settled.forEach((outcome, i) => {
    const name = chosen[i]!;
    if (outcome.status === "fulfilled") {
      const { posts, via } = outcome.value;
      results.push(...posts);
      sources[name] = { status: "ok", count: posts.length, ...(via ? { via } : {}) };
    } else {
      const reason = outcome.reason instanceof GatewayError ? outcome.reason.message : "search failed";
      sources[name] = { status: "error", count: 0, error: reason };
    }
  });
  results.sort((a, b) => b.created_at.localeCompare(a.created_at));
  const page = results.slice(0, limit);
  return { query, platform, count: page.length, results: page, sources };
};

export const socialRoutes: RouteDef[] = [route(search, handleSearch)];
