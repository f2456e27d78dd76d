import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = { name: "fec", origin: "https://api.open.fec.gov", cacheTtlMs: 60 * 60_000 };

const apiKey = () => process.env.FEC_API_KEY?.trim() || "DEMO_KEY";

/** A candidate as OpenFEC's candidate endpoints send one. */
export type Candidate = {
  candidate_id: string;
  name: string;
  party_full?: string;
  office_full?: string;
  state?: string;
  election_years?: number[];
  incumbent_challenge_full?: string;
};

export const searchCandidates = (ctx: SourceContext, q: string, limit: number) =>
  ctx.client.get<{ results?: Candidate[] }>({
    path: "/v1/candidates/search/",
    query: { q, per_page: Math.min(limit, 100), api_key: apiKey() },
  });

export const candidate = (ctx: SourceContext, id: string) =>
  ctx.client.get<{ results?: Candidate[] }>({ path: `/v1/candidate/${id}/`, query: { api_key: apiKey() } });
