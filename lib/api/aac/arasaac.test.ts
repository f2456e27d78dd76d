import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import { MemoryUpstreamCache } from "../../upstream/cache.ts";
import { startFakeArasaac, type FakeArasaac } from "../../../test/fakes/arasaac.ts";
import { arasaacLocale, findPictograms, normalisePictograms, pictogramImageUrl, rankPictograms } from "./arasaac.ts";

describe("arasaacLocale", () => {
  it("reads tags in any case, drops a region or script, and knows ARASAAC's own names", () => {
    expect(["es", "ES", "es-ES", "es_mx", " Es "].map(arasaacLocale)).toEqual(["es", "es", "es", "es", "es"]);
    expect(arasaacLocale("zh-Hans")).toBe("zh");
    expect(arasaacLocale("pt-BR")).toBe("br");
    expect(arasaacLocale("pt-PT")).toBe("pt");
    expect(arasaacLocale("ca-ES-valencia")).toBe("val");
    expect(arasaacLocale("klingon")).toBeUndefined();
    expect(arasaacLocale("")).toBeUndefined();
  });
});

describe("normalisePictograms", () => {
  it("keeps ids and keywords (then plurals), skipping malformed entries", () => {
    expect(
      normalisePictograms([
        { _id: 7202, keywords: [{ keyword: "dog", plural: "dogs", type: 2 }, { keyword: "hound" }] },
        { _id: "x", keywords: [] },
        { _id: 5, keywords: [{ keyword: "" }, { type: 2 }] },
        null,
      ]),
    ).toEqual([
      { id: 7202, keywords: ["dog", "hound", "dogs"] },
      { id: 5, keywords: [] },
    ]);
  });

  it("keeps each pictogram once and drops ids that are not positive safe integers", () => {
    const p = (id: unknown) => ({ _id: id, keywords: [{ keyword: "x" }] });
    expect(normalisePictograms([p(7), p(7), p(-2), p(0), p(1e20), p(2.5), p(8)]).map((x) => x.id)).toEqual([7, 8]);
  });

  it("treats anything but a list as a 502", () => {
    expect(() => normalisePictograms({ error: "x" })).toThrow(GatewayError);
  });
});

describe("rankPictograms", () => {
  it("scores by keyword tier, upstream-only matches 0.3, ties in ARASAAC's order, absolute image URLs", () => {
    const ranked = rankPictograms("dogs", [
      { id: 1, keywords: ["kennel"] },
      { id: 2, keywords: ["dog"] },
      { id: 3, keywords: [] },
    ]);
    expect(ranked.map((r) => [r.id, r.keyword, r.score])).toEqual([
      [2, "dog", 0.9],
      [1, "kennel", 0.3],
      [3, "dogs", 0.3],
    ]);
    expect(ranked[0]).toMatchObject({
      icon_url: pictogramImageUrl(2),
      url: "https://static.arasaac.org/pictograms/2/2_300.png",
      source: "arasaac",
      author: "Sergio Palao",
      license: "CC BY-NC-SA 4.0",
    });
  });
});

describe("findPictograms", () => {
  let fake: FakeArasaac;
  const saved = process.env.UPSTREAM_ARASAAC_URL;
  beforeAll(async () => {
    fake = await startFakeArasaac();
    process.env.UPSTREAM_ARASAAC_URL = fake.url;
  });
  afterAll(async () => {
    process.env.UPSTREAM_ARASAAC_URL = saved;
    await fake.close();
  });

  it("calls the real path with the locale and caches normalised answers, misses included", async () => {
    const cache = new MemoryUpstreamCache();
    expect(await findPictograms(cache, "ice cream", "en")).toEqual([
      { id: 2400, keywords: ["ice cream", "ice creams"] },
    ]);
    expect(await findPictograms(cache, "nothing here", "fr")).toEqual([]);
    await findPictograms(cache, "Ice Cream!", "en");
    await findPictograms(cache, "nothing here", "fr");
    expect(await findPictograms(cache, " ?! ", "en")).toEqual([]);
    expect(fake.hits).toEqual(["/api/pictograms/en/search/ice cream", "/api/pictograms/fr/search/nothing here"]);
  });

  it("asks ARASAAC in lower case without punctuation, so an exact-match upstream still finds the word", async () => {
    const cache = new MemoryUpstreamCache();
    const before = fake.hits.length;
    await findPictograms(cache, "DOG?", "en");
    await findPictograms(cache, "Camión", "es");
    expect(fake.hits.slice(before)).toEqual(["/api/pictograms/en/search/dog", "/api/pictograms/es/search/camión"]);
  });

  it("passes upstream failures on as the client's 502", async () => {
    await expect(findPictograms(new MemoryUpstreamCache(), "boom", "en")).rejects.toMatchObject({ status: 502 });
  });

  it("turns ARASAAC refusing the search (its 400) into a 502: the caller's query was valid", async () => {
    await expect(findPictograms(new MemoryUpstreamCache(), "refuse", "en")).rejects.toMatchObject({
      status: 502,
      message: expect.stringContaining("arasaac"),
    });
  });
});
