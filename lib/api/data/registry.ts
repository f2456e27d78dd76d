import { GatewayError } from "../../errors.ts";
import type { DataSource } from "./source.ts";
import { archive } from "./sources/archive/index.ts";
import { arxiv } from "./sources/arxiv/index.ts";
import { census } from "./sources/census/index.ts";
import { finance } from "./sources/finance/index.ts";
import { fec } from "./sources/fec/index.ts";
import { github } from "./sources/github/index.ts";
import { judiciary } from "./sources/judiciary/index.ts";
import { mal } from "./sources/mal/index.ts";
import { nasa } from "./sources/nasa/index.ts";
import { news } from "./sources/news/index.ts";
import { openlibrary } from "./sources/openlibrary/index.ts";
import { pubmed } from "./sources/pubmed/index.ts";
import { semanticScholar } from "./sources/semantic_scholar/index.ts";
import { weather } from "./sources/weather/index.ts";
import { wikipedia } from "./sources/wikipedia/index.ts";
import { wolfram } from "./sources/wolfram/index.ts";
import { youtube } from "./sources/youtube/index.ts";

/** The 17 sources of DESIGN.md, in its order. */
export const SOURCES: DataSource[] = [
  arxiv,
  semanticScholar,
  pubmed,
  wikipedia,
  github,
  nasa,
  census,
  openlibrary,
  archive,
  youtube,
  wolfram,
  news,
  weather,
  finance,
  fec,
  mal,
  judiciary,
];

/** Names the spec also accepts for a source. */
const ALIASES: Record<string, string> = { noaa: "weather", wayback: "archive" };

export function dataSource(name: string): DataSource {
  const source = SOURCES.find((s) => s.name === (ALIASES[name] ?? name));
  if (!source)
    throw new GatewayError(400, `unknown data source '${name}': use one of ${SOURCES.map((s) => s.name).join(", ")}`);
  return source;
}
