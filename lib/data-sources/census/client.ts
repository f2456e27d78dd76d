import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "census",
  origin: "https://api.census.gov",
  cacheTtlMs: 24 * 60 * 60_000,
};

const key = () => process.env.CENSUS_API_KEY?.trim() || undefined;

/** Total population (ACS 5-year, B01003_001E) with each area's name, as the Data API's JSON table: a header row, then one row per area. */
export const populationTable = (ctx: SourceContext, year: number, forAreas: string, inArea?: string) =>
  ctx.client.get<string[][]>({
    path: `/data/${year}/acs/acs5`,
    query: { get: "NAME,B01003_001E", for: forAreas, in: inArea, key: key() },
  });
