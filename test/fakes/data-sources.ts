// Each data source's fake upstream, one file per source under ./data-sources/, speaking that
// upstream's documented wire format; this module gathers them for the tests.
import { Hono } from "hono";
import { startFakeServer, type FakeSource } from "./data-sources/server.ts";
import { fakeFecApp } from "./data-sources/fec.ts";
import { fakeJudiciaryApp } from "./data-sources/judiciary.ts";
import { fakeMalApp } from "./data-sources/mal.ts";
import { fakeNewsApp } from "./data-sources/news.ts";
import { fakeWolframApp } from "./data-sources/wolfram.ts";
import { fakeYoutubeApp } from "./data-sources/youtube.ts";

export { startFakeServer, type FakeSource };
export { startFakeArchive } from "./data-sources/archive.ts";
export { startFakeArxiv } from "./data-sources/arxiv.ts";
export { startFakeCensus } from "./data-sources/census.ts";
export { startFakeFec } from "./data-sources/fec.ts";
export { startFakeFinance } from "./data-sources/finance.ts";
export { startFakeGithub } from "./data-sources/github.ts";
export { startFakeJudiciary } from "./data-sources/judiciary.ts";
export { startFakeMal } from "./data-sources/mal.ts";
export { startFakeNasa } from "./data-sources/nasa.ts";
export { startFakeNews } from "./data-sources/news.ts";
export { startFakeOpenLibrary } from "./data-sources/openlibrary.ts";
export { startFakePubmed } from "./data-sources/pubmed.ts";
export { startFakeSemanticScholar } from "./data-sources/semantic_scholar.ts";
export { startFakeOpenMeteo } from "./data-sources/weather.ts";
export { startFakeWikipedia } from "./data-sources/wikipedia.ts";
export { startFakeWolfram } from "./data-sources/wolfram.ts";
export { startFakeYoutube } from "./data-sources/youtube.ts";

/** The six keyed sources on one origin: their paths do not collide, and one server is cheaper than six in a test. */
export function startFakeKeyedSources(): Promise<FakeSource> {
  const app = new Hono();
  for (const source of [fakeYoutubeApp, fakeWolframApp, fakeNewsApp, fakeFecApp, fakeMalApp, fakeJudiciaryApp])
    app.route("/", source());
  return startFakeServer(app);
}
