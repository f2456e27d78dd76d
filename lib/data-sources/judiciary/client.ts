import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "judiciary",
  origin: "https://www.courtlistener.com",
  cacheTtlMs: 60 * 60_000,
};

const headers = (): Record<string, string> => {
  const token = process.env.COURTLISTENER_TOKEN?.trim();
  return token ? { authorization: `Token ${token}` } : {};
};

/** One hit of CourtListener's v4 opinion search. */
export type Hit = {
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

export const searchOpinions = (ctx: SourceContext, q: string) =>
  ctx.client.get<{ results?: Hit[] }>({ path: "/api/rest/v4/search/", query: { q, type: "o" }, headers: headers() });

export const cluster = (ctx: SourceContext, id: string) =>
  ctx.client.get<unknown>({ path: `/api/rest/v4/clusters/${id}/`, headers: headers() });
