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

/** Every source by its name (the name its descriptor carries). */
export const SOURCES: Record<string, DataSource> = {
  archive,
  arxiv,
  census,
  fec,
  finance,
  github,
  judiciary,
  mal,
  nasa,
  news,
  openlibrary,
  pubmed,
  semantic_scholar: semanticScholar,
  weather,
  wikipedia,
  wolfram,
  youtube,
};

/** The 17 sources in the order DESIGN.md lists them: the order GET /v1/data/sources and a multi-search give. */
export const SOURCE_ORDER = [
  "arxiv",
  "semantic_scholar",
  "pubmed",
  "wikipedia",
  "github",
  "nasa",
  "census",
  "openlibrary",
  "archive",
  "youtube",
  "wolfram",
  "news",
  "weather",
  "finance",
  "fec",
  "mal",
  "judiciary",
] as const;

/** Every source, in SOURCE_ORDER. */
export const listedSources = (): DataSource[] => SOURCE_ORDER.map((name) => SOURCES[name]!);

/** Names the spec also accepts for a source. */
const ALIASES: Record<string, string> = { noaa: "weather", wayback: "archive" };

export function dataSource(name: string): DataSource {
  const source = Object.hasOwn(SOURCES, ALIASES[name] ?? name) ? SOURCES[ALIASES[name] ?? name] : undefined;
  if (!source) throw new GatewayError(400, `unknown data source '${name}': use one of ${SOURCE_ORDER.join(", ")}`);
  return source;
}
