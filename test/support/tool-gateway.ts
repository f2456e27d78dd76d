import {
  startFakeArchive,
  startFakeArxiv,
  startFakeCensus,
  startFakeFinance,
  startFakeGithub,
  startFakeKeyedSources,
  startFakeNasa,
  startFakeOpenLibrary,
  startFakeOpenMeteo,
  startFakeSemanticScholar,
  startFakeWikipedia,
  type FakeSource,
} from "../fakes/data-sources.ts";
import { useGateway } from "./use-gateway.ts";

/** The fakes the tools' sources reach, each under the UPSTREAM_<NAME>_URL variables it stands in for. */
const FAKES = {
  archive: { start: startFakeArchive, sources: ["ARCHIVE"] },
  arxiv: { start: startFakeArxiv, sources: ["ARXIV"] },
  census: { start: startFakeCensus, sources: ["CENSUS"] },
  finance: { start: startFakeFinance, sources: ["FINANCE"] },
  github: { start: startFakeGithub, sources: ["GITHUB"] },
  keyed: { start: startFakeKeyedSources, sources: ["NEWS", "YOUTUBE"] },
  nasa: { start: startFakeNasa, sources: ["NASA"] },
  openlibrary: { start: startFakeOpenLibrary, sources: ["OPENLIBRARY"] },
  weather: { start: startFakeOpenMeteo, sources: ["WEATHER"] },
  scholar: { start: startFakeSemanticScholar, sources: ["SEMANTIC_SCHOLAR"] },
  wikipedia: { start: startFakeWikipedia, sources: ["WIKIPEDIA"] },
} as const;
export type FakeName = keyof typeof FAKES;
const FAKE_NAMES = Object.keys(FAKES) as FakeName[];

/**
 * A gateway whose 36 tools all reach fakes of their upstreams, with every credential they need, and
 * a key allowing 1000 requests a minute. Each describe that calls it gets its own gateway and fakes
 * (a cold upstream cache, so each call reaches them).
 */
export function useToolGateway() {
  const fakes = {} as Record<FakeName, FakeSource>;
  const t = useGateway({
    fakes: async () => {
      const started = await Promise.all(FAKE_NAMES.map((name) => FAKES[name].start()));
      FAKE_NAMES.forEach((name, i) => (fakes[name] = started[i]!));
      return started;
    },
    env: () => ({
      ...Object.fromEntries(
        FAKE_NAMES.flatMap((name) => FAKES[name].sources.map((s) => [`UPSTREAM_${s}_URL`, fakes[name].url])),
      ),
      NEWS_API_KEY: "na",
      YOUTUBE_API_KEY: "yt",
      ALPHAVANTAGE_API_KEY: "av-key",
      NASA_API_KEY: undefined,
      GITHUB_TOKEN: undefined,
      CENSUS_API_KEY: undefined,
      SEMANTIC_SCHOLAR_API_KEY: undefined,
    }),
    key: { minute: 1000 },
  });
  return { t, fakes };
}
