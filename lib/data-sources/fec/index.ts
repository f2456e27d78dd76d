import { GatewayError } from "../../errors.ts";
import type { DataSource } from "../source.ts";
import { candidate, searchCandidates, upstream } from "./client.ts";
import { candidateRecord } from "./normalise.ts";

export const fec: DataSource = {
  name: "fec",
  description: "US Federal Election Commission: candidates (FEC_API_KEY, DEMO_KEY when unset)",
  upstream,
  async search(ctx, query, limit) {
    return ((await searchCandidates(ctx, query, limit)).results ?? []).map(candidateRecord);
  },
  async get(ctx, id) {
    if (!/^[HSP][0-9A-Z]{8}$/.test(id)) throw new GatewayError(400, "fec get takes a candidate id such as P80001571");
    const c = (await candidate(ctx, id)).results?.[0];
    if (!c) throw new GatewayError(404, `fec has no candidate ${id}`);
    return c;
  },
};
