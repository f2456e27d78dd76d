import { GatewayError } from "../errors.ts";
import type { DataSource } from "./source.ts";
import { archive } from "./archive/index.ts";
import { arxiv } from "./arxiv/index.ts";
import { census } from "./census/index.ts";
import { finance } from "./finance/index.ts";
import { fec } from "./fec/index.ts";
import { github } from "./github/index.ts";
import { judiciary } from "./judiciary/index.ts";
import { mal } from "./mal/index.ts";
import { nasa } from "./nasa/index.ts";
import { news } from "./news/index.ts";
import { openlibrary } from "./openlibrary/index.ts";
import { pubmed } from "./pubmed/index.ts";
import { semanticScholar } from "./semantic_scholar/index.ts";
import { weather } from "./weather/index.ts";
import { wikipedia } from "./wikipedia/index.ts";
import { wolfram } from "./wolfram/index.ts";
import { youtube } from "./youtube/index.ts";

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
