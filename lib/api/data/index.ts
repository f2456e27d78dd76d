import { defineArea } from "../../gateway/http/area.ts";
import { registerDataSourceList, registerGenericDataRoutes } from "./routes.ts";
import { registerArchiveRoutes } from "./sources/archive/routes.ts";
import { registerCensusRoutes } from "./sources/census/routes.ts";
import { registerFinanceRoutes } from "./sources/finance/routes.ts";
import { registerGithubRoutes } from "./sources/github/routes.ts";
import { registerNasaRoutes } from "./sources/nasa/routes.ts";
import { registerOpenlibraryRoutes } from "./sources/openlibrary/routes.ts";
import { registerPubmedRoutes } from "./sources/pubmed/routes.ts";
import { registerWeatherRoutes } from "./sources/weather/routes.ts";
import { registerWikipediaRoutes } from "./sources/wikipedia/routes.ts";
import { registerWolframRoutes } from "./sources/wolfram/routes.ts";
import { registerYoutubeRoutes } from "./sources/youtube/routes.ts";

/**
 * The data sources (lib/api/data/sources/<name>/: the source and its own endpoints). Hono matches
 * in registration order, so the order here is part of the behaviour: the untrusted-content
 * middleware and the source list first, then each source's specific endpoints, then the generic
 * /v1/data/{source}/… routes, which would otherwise answer /v1/data/wikipedia/search and the like.
 */
export default defineArea({
  name: "data",
  scope: "data",
  paths: ["/v1/data/*"],
  routes: [
    registerDataSourceList,
    registerWikipediaRoutes,
    registerOpenlibraryRoutes,
    registerWeatherRoutes,
    registerFinanceRoutes,
    registerNasaRoutes,
    registerGithubRoutes,
    registerPubmedRoutes,
    registerArchiveRoutes,
    registerCensusRoutes,
    registerYoutubeRoutes,
    registerWolframRoutes,
    registerGenericDataRoutes,
  ],
});
