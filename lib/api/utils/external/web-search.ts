import { requireCredential } from "../../../upstream/credentials.ts";
import type { SourceContext } from "../../../data-sources/source.ts";

export const WEBSEARCH_UPSTREAM = { name: "websearch", origin: "https://google.serper.dev", cacheTtlMs: 10 * 60_000 };

/** Serper's Google search (POST /search); results as {title, url, snippet, position}. */
export async function webSearch(ctx: SourceContext, q: string, num: number, gl?: string) {
  const key = requireCredential("web search", "SERPER_API_KEY");
  const res = await ctx.client.post<{
    organic?: Array<{ title: string; link: string; snippet?: string; position?: number; date?: string }>;
    searchParameters?: unknown;
  }>({
    path: "/search",
    body: { q, num, ...(gl ? { gl } : {}) },
    headers: { "x-api-key": key },
  });
  return {
    query: q,
    count: res.organic?.length ?? 0,
    results: (res.organic ?? []).map((o) => ({
      title: o.title,
      url: o.link,
      snippet: o.snippet ?? null,
      position: o.position ?? null,
      date: o.date ?? null,
    })),
  };
}
