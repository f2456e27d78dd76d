import { GatewayError } from "../../gateway/errors.ts";
import type { DataSource } from "./source.ts";
import { archive } from "./sources/archive/index.ts";
import { arxiv } from "./sources/arxiv/index.ts";
import { census } from "./sources/census/index.ts";
import { finance } from "./sources/finance/index.ts";
import { github } from "./sources/github/index.ts";
import { nasa } from "./sources/nasa/index.ts";
import { openlibrary } from "./sources/openlibrary/index.ts";
import { pubmed } from "./sources/pubmed/index.ts";
import { semanticScholar } from "./sources/semantic_scholar/index.ts";
import { weather } from "./sources/weather/index.ts";
import { wikipedia } from "./sources/wikipedia/index.ts";

/** The sources served now. DESIGN.md names 17; the rest join this list as their adapters land. */
export const SOURCES: DataSource[] = [arxiv, semanticScholar, pubmed, wikipedia, github, nasa, census, openlibrary, archive, weather, finance];

/** Names the spec also accepts for a source. */
const ALIASES: Record<string, string> = { noaa: "weather", wayback: "archive" };

export function dataSource(name: string): DataSource {
  const source = SOURCES.find((s) => s.name === (ALIASES[name] ?? name));
  if (!source) throw new GatewayError(400, `unknown data source '${name}': use one of ${SOURCES.map((s) => s.name).join(", ")}`);
  return source;
}
