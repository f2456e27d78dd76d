import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord } from "../source.ts";

const apiKey = () => process.env.FEC_API_KEY?.trim() || "DEMO_KEY";
type Candidate = {
  candidate_id: string;
  name: string;
  party_full?: string;
  office_full?: string;
  state?: string;
  election_years?: number[];
  incumbent_challenge_full?: string;
};

export const fec: DataSource = {
  name: "fec",
  description: "US Federal Election Commission: candidates (FEC_API_KEY, DEMO_KEY when unset)",
  upstream: { name: "fec", origin: "https://api.open.fec.gov", cacheTtlMs: 60 * 60_000 },
  async search(ctx, query, limit) {
    const body = await ctx.client.get<{ results?: Candidate[] }>({
      path: "/v1/candidates/search/",
      query: { q: query, per_page: Math.min(limit, 100), api_key: apiKey() },
    });
    return (body.results ?? []).map((c): SearchRecord => ({
      id: c.candidate_id,
      title: c.name,
      url: `https://www.fec.gov/data/candidate/${c.candidate_id}/`,
      summary: [c.office_full, c.state, c.party_full].filter(Boolean).join(" · ") || null,
      source: "fec",
      extra: { election_years: c.election_years ?? [] },
    }));
  },
  async get(ctx, id) {
    if (!/^[HSP][0-9A-Z]{8}$/.test(id)) throw new GatewayError(400, "fec get takes a candidate id such as P80001571");
    const body = await ctx.client.get<{ results?: Candidate[] }>({
      path: `/v1/candidate/${id}/`,
      query: { api_key: apiKey() },
    });
    const c = body.results?.[0];
    if (!c) throw new GatewayError(404, `fec has no candidate ${id}`);
    return c;
  },
};
