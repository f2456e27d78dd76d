import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord } from "../source.ts";

const headers = (): Record<string, string> => {
  const token = process.env.COURTLISTENER_TOKEN?.trim();
  return token ? { authorization: `Token ${token}` } : {};
};
type Hit = {
  caseName: string;
  court?: string;
  court_id?: string;
  dateFiled?: string;
  absolute_url: string;
  cluster_id: number;
  docketNumber?: string;
  citation?: string[];
  opinions?: Array<{ snippet?: string }>;
};

export const judiciary: DataSource = {
  name: "judiciary",
  description: "US court opinions from CourtListener (COURTLISTENER_TOKEN optional)",
  upstream: { name: "judiciary", origin: "https://www.courtlistener.com", cacheTtlMs: 60 * 60_000 },
  async search(ctx, query, limit) {
    const body = await ctx.client.get<{ results?: Hit[] }>({
      path: "/api/rest/v4/search/",
      query: { q: query, type: "o" },
      headers: headers(),
    });
    return (body.results ?? []).slice(0, limit).map((h): SearchRecord => ({
      id: String(h.cluster_id),
      title: h.caseName,
      url: `https://www.courtlistener.com${h.absolute_url}`,
      summary: h.opinions?.[0]?.snippet?.trim() || null,
      published: h.dateFiled ?? null,
      source: "judiciary",
      extra: { court: h.court ?? null, docket: h.docketNumber ?? null, citations: h.citation ?? [] },
    }));
  },
  async get(ctx, id) {
    if (!/^\d+$/.test(id)) throw new GatewayError(400, "judiciary get takes a numeric opinion cluster id");
    return ctx.client.get({ path: `/api/rest/v4/clusters/${id}/`, headers: headers() });
  },
};
