import { GatewayError } from "../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../source.ts";

export const GEOGRAPHIES = {
  state: "state:*",
  county: "county:*",
  tract: "tract:*",
  zcta: "zip code tabulation area:*",
} as const;
export type Geography = keyof typeof GEOGRAPHIES;
/** A state's two-digit FIPS code (06 is California). */
export const STATE_FIPS = /^\d{2}$/;
const key = () => process.env.CENSUS_API_KEY?.trim() || undefined;

/** Total population (ACS 5-year, B01003_001E) for every area of one kind. */
export async function population(ctx: SourceContext, geography: Geography, year: number, state?: string) {
  if (geography === "tract" && !state)
    throw new GatewayError(400, "tract population needs state (a two-digit FIPS code)");
  if (state && !STATE_FIPS.test(state)) throw new GatewayError(400, "state must be a two-digit FIPS code, e.g. 06");
  const rows = await ctx.client.get<string[][]>({
    path: `/data/${year}/acs/acs5`,
    query: {
      get: "NAME,B01003_001E",
      for: GEOGRAPHIES[geography],
      in: state ? `state:${state}` : undefined,
      key: key(),
    },
  });
  const [header, ...data] = Array.isArray(rows) ? rows : [];
  if (!header) throw new GatewayError(502, "census answered without a table");
  const nameAt = header.indexOf("NAME");
  const popAt = header.indexOf("B01003_001E");
  const codeColumns = header.map((h, i) => [h, i] as const).filter(([h]) => h !== "NAME" && h !== "B01003_001E");
  const areas = data.map((r) => ({
    name: r[nameAt] ?? "",
    population: Number(r[popAt]),
    fips: codeColumns.map(([, i]) => r[i]).join(""),
  }));
  return { geography, year, dataset: "acs/acs5", variable: "B01003_001E", count: areas.length, areas };
}

export const census: DataSource = {
  name: "census",
  description: "US Census Bureau (ACS 5-year): population by state, county, tract or ZCTA (CENSUS_API_KEY optional)",
  upstream: { name: "census", origin: "https://api.census.gov", cacheTtlMs: 24 * 60 * 60_000 },
  async search(ctx, query, limit) {
    const { areas, year } = await population(ctx, "state", 2022);
    const q = query.toLowerCase();
    return areas
      .filter((a) => a.name.toLowerCase().includes(q))
      .slice(0, limit)
      .map((a): SearchRecord => ({
        id: a.fips,
        title: a.name,
        url: null,
        summary: `Population ${a.population.toLocaleString("en-US")} (ACS ${year})`,
        source: "census",
        extra: { population: a.population, year },
      }));
  },
  async get(ctx, id) {
    if (!STATE_FIPS.test(id)) throw new GatewayError(400, "census get takes a state FIPS code, e.g. 06");
    const { areas, year } = await population(ctx, "state", 2022);
    const area = areas.find((a) => a.fips === id);
    if (!area) throw new GatewayError(404, `no state with FIPS code ${id}`);
    return { ...area, year };
  },
};
