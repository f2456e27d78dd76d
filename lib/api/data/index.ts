import { defineArea } from "../../gateway/http/area.ts";
import { dataSourceListRoutes, genericDataRoutes } from "./routes.ts";
import { archiveRoutes } from "./sources/archive/routes.ts";
import { censusRoutes } from "./sources/census/routes.ts";
import { financeRoutes } from "./sources/finance/routes.ts";
import { githubRoutes } from "./sources/github/routes.ts";
import { nasaRoutes } from "./sources/nasa/routes.ts";
import { openlibraryRoutes } from "./sources/openlibrary/routes.ts";
import { pubmedRoutes } from "./sources/pubmed/routes.ts";
import { weatherRoutes } from "./sources/weather/routes.ts";
import { wikipediaRoutes } from "./sources/wikipedia/routes.ts";
import { wolframRoutes } from "./sources/wolfram/routes.ts";
import { youtubeRoutes } from "./sources/youtube/routes.ts";

/**
 * The data sources: each source's client in lib/data-sources/<name>/, its own endpoints in
 * ./sources/<name>/routes.ts, the routes every source answers in ./routes.ts. The order below is
 * alphabetical and decides nothing: the route table tries an exact path
 * (/v1/data/wikipedia/search) before any parameterised one (/v1/data/{source}/search), and a more
 * literal parameterised path before a less literal one. Every answer here, errors included, is a
 * third party's content: archive snapshots (also reached as wayback/get) carry an archived page's
 * HTML verbatim.
 */
export default defineArea({
  name: "data",
  scope: "data",
  paths: ["/v1/data/*"],
  respond: { untrusted: true },
  routes: [
    ...dataSourceListRoutes,
    ...genericDataRoutes,
    ...archiveRoutes,
    ...censusRoutes,
    ...financeRoutes,
    ...githubRoutes,
    ...nasaRoutes,
    ...openlibraryRoutes,
    ...pubmedRoutes,
    ...weatherRoutes,
    ...wikipediaRoutes,
    ...wolframRoutes,
    ...youtubeRoutes,
  ],
});
