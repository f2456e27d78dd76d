import { describe, expect, it } from "vitest";
import { startFakeKeyedSources } from "./fakes/data-sources.ts";
import { useGateway } from "./support/use-gateway.ts";

const NAMES = ["YOUTUBE", "WOLFRAM", "NEWS", "FEC", "MAL", "JUDICIARY"];

describe("/v1/data youtube, wolfram, news, fec, mal and judiciary", () => {
  const t = useGateway({
    fakes: async () => [await startFakeKeyedSources()],
    env: ([fake]) => ({
      ...Object.fromEntries(NAMES.map((n) => [`UPSTREAM_${n}_URL`, fake.url])),
      ...Object.fromEntries(
        ["YOUTUBE_API_KEY", "WOLFRAM_APP_ID", "NEWS_API_KEY", "MAL_CLIENT_ID"].map((v) => [v, undefined]),
      ),
    }),
    key: { minute: 1000 },
  });
  const { get } = t;

  it("lists all 17 sources", async () => {
    const body = await (await t.gw.request("/v1/data/sources")).json();
    expect(body.sources).toHaveLength(17);
    expect(body.sources).toEqual(expect.arrayContaining(["youtube", "wolfram", "news", "fec", "mal", "judiciary"]));
  });

  it("answers 503 naming the variable for sources whose credential is unset", async () => {
    for (const [path, variable] of [
      ["/v1/data/youtube/search?q=x", "YOUTUBE_API_KEY"],
      ["/v1/data/news/search?q=x", "NEWS_API_KEY"],
      ["/v1/data/mal/search?q=xyz", "MAL_CLIENT_ID"],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(503);
      expect((await res.json()).error).toMatch(variable);
    }
  });

  it("serves each source once configured", async () => {
    Object.assign(process.env, {
      YOUTUBE_API_KEY: "yt",
      WOLFRAM_APP_ID: "wa",
      NEWS_API_KEY: "na",
      MAL_CLIENT_ID: "mal",
    });
    expect((await (await get("/v1/data/youtube/search?q=gateways")).json()).results[0]).toMatchObject({
      id: "dQw4w9WgXcQ",
      url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      authors: ["Tech Talks"],
    });
    expect(await (await get("/v1/data/youtube/channel/UC_x5XG1OV2P6uZZ5FSM9Ttw")).json()).toMatchObject({
      title: "Google for Developers",
      subscribers: 2400000,
      videos: 6000,
    });
    expect((await get("/v1/data/youtube/channel/UC_x5XG1OV2P6uZZ5FSM9Ttx")).status).toBe(404);
    expect((await get("/v1/data/youtube/channel/nope")).status).toBe(400);

    const w = await (await t.post("/v1/data/wolfram/query", { query: "integrate x^2" })).json();
    expect(w).toMatchObject({
      result: "∫x^2 dx = x^3/3 + constant",
      pods: [{ title: "Input interpretation" }, { title: "Indefinite integral", primary: true }],
    });

    expect((await (await get("/v1/data/news/search?q=gateways")).json()).results[0]).toMatchObject({
      title: "Gateways go mainstream",
      authors: ["R. Porter"],
      extra: { outlet: "Example Times" },
    });
    expect((await (await get("/v1/data/fec/search?q=doe")).json()).results[0]).toMatchObject({
      id: "P80001571",
      summary: "President · US · INDEPENDENT",
    });
    expect((await (await get("/v1/data/fec/get/P80001571")).json()).result).toMatchObject({ name: "DOE, JANE" });
    expect((await (await get("/v1/data/mal/search?q=fullmetal")).json()).results[0]).toMatchObject({
      id: "5114",
      extra: { score: 9.1, episodes: 64 },
    });
    expect((await (await get("/v1/data/judiciary/search?q=marbury")).json()).results[0]).toMatchObject({
      title: "Marbury v. Madison",
      published: "1803-02-24",
      extra: { citations: ["5 U.S. 137"] },
    });
  });
});
