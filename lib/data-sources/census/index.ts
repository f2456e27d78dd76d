import { GatewayError } from "../../errors.ts";
import type { DataSource, SourceContext } from "../source.ts";
import { populationTable, upstream } from "./client.ts";
import { areasOf, stateRecord } from "./normalise.ts";

export const GEOGRAPHIES = {
  state: "state:*",
  county: "county:*",
  tract: "tract:*",
  zcta: "zip code tabulation area:*",
} as const;
export type Geography = keyof typeof GEOGRAPHIES;
/** A state's two-digit FIPS code (06 is California). */
export const STATE_FIPS = /^\d{2}$/;

/** Total population (ACS 5-year, B01003_001E) for every area of one kind. */
export async function population(ctx: SourceContext, geography: Geography, year: number, state?: string) {
  if (geography === "tract" && !state)
    throw new GatewayError(400, "tract population needs state (a two-digit FIPS code)");
  if (state && !STATE_FIPS.test(state)) throw new GatewayError(400, "state must be a two-digit FIPS code, e.g. 06");
  const areas = areasOf(await populationTable(ctx, year, GEOGRAPHIES[geography], state ? `state:${state}` : undefined));
  return { geography, year, dataset: "acs/acs5", variable: "B01003_001E", count: areas.length, areas };
}

export const census: DataSource = {
  name: "census",
  description: "US Census Bureau (ACS 5-year): population by state, county, tract or ZCTA (CENSUS_API_KEY optional)",
  upstream,
  async search(ctx, query, limit) {
    const { areas, year } = await population(ctx, "state", 2022);
    const q = query.toLowerCase();
    return areas
      .filter((a) => a.name.toLowerCase().includes(q))
      .slice(0, limit)
      .map((a) => stateRecord(a, year));
  },
  async get(ctx, id) {
    if (!STATE_FIPS.test(id)) throw new GatewayError(400, "census get takes a state FIPS code, e.g. 06");
    const { areas, year } = await population(ctx, "state", 2022);
    const area = areas.find((a) => a.fips === id);
    if (!area) throw new GatewayError(404, `no state with FIPS code ${id}`);
    return { ...area, year };
  },
};
