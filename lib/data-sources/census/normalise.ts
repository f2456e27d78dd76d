import { GatewayError } from "../../errors.ts";
import type { SearchRecord } from "../source.ts";

export type Area = { name: string; population: number; fips: string };

/** The table's areas: name, population, and the FIPS code its geography columns spell together (state, then county…). */
export function areasOf(rows: unknown): Area[] {
  const [header, ...data] = Array.isArray(rows) ? (rows as string[][]) : [];
  if (!header) throw new GatewayError(502, "census answered without a table");
  const nameAt = header.indexOf("NAME");
  const popAt = header.indexOf("B01003_001E");
  const codeColumns = header.map((h, i) => [h, i] as const).filter(([h]) => h !== "NAME" && h !== "B01003_001E");
  return data.map((r) => ({
    name: r[nameAt] ?? "",
    population: Number(r[popAt]),
    fips: codeColumns.map(([, i]) => r[i]).join(""),
  }));
}

/** A state as a search record. */
export const stateRecord = (a: Area, year: number): SearchRecord => ({
  id: a.fips,
  title: a.name,
  url: null,
  summary: `Population ${a.population.toLocaleString("en-US")} (ACS ${year})`,
  source: "census",
  extra: { population: a.population, year },
});
