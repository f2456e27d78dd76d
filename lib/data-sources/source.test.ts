import { describe, expect, it } from "vitest";
import { MemoryUpstreamCache } from "../upstream/cache.ts";
import { cachedSearch, cachedSearchJson, type DataSource, type SearchRecord } from "./source.ts";

/** A source that answers from `answers` (the next one each call) and counts its calls. */
function source(answers: SearchRecord[][], cacheTtlMs = 60_000) {
  const s = {
    calls: 0,
    name: "probe",
    description: "a test source",
    upstream: { name: "probe", baseUrl: "http://127.0.0.1:9", cacheTtlMs },
    async search() {
      return answers[Math.min(s.calls++, answers.length - 1)]!;
    },
    async get() {
      return null;
    },
  };
  return s as typeof s & DataSource;
}
const record = (id: string): SearchRecord => ({
  id,
  title: `T ${id}`,
  url: null,
  summary: 'é \u2028 "quoted"',
  source: "probe",
});

describe("cachedSearchJson", () => {
  it("gives the results' JSON text and count, the same on a cache hit, without asking the source again", async () => {
    const probe = source([[record("a"), record("b"), record("c")]]);
    const cache = new MemoryUpstreamCache();
    const first = await cachedSearchJson(probe, cache, "q", 2);
    expect(first).toEqual({ json: JSON.stringify([record("a"), record("b")]), count: 2 });
    expect(await cachedSearchJson(probe, cache, "q", 2)).toEqual(first);
    expect(await cachedSearch(probe, cache, "q", 2)).toEqual([record("a"), record("b")]);
    expect(probe.calls).toBe(1);
  });

  it("counts again when the cached text changes (another instance refilled it, say)", async () => {
    const probe = source([[record("a")]]);
    const cache = new MemoryUpstreamCache();
    expect((await cachedSearchJson(probe, cache, "q", 5)).count).toBe(1);
    const refilled = JSON.stringify([record("x"), record("y"), record("z")]);
    await cache.set("search:probe:5:q", refilled, 60_000);
    expect(await cachedSearchJson(probe, cache, "q", 5)).toEqual({ json: refilled, count: 3 });
  });

  it("asks the source every time when its cache TTL is 0", async () => {
    const probe = source([[record("a")], [record("b"), record("c")]], 0);
    const cache = new MemoryUpstreamCache();
    expect((await cachedSearchJson(probe, cache, "q", 5)).count).toBe(1);
    expect((await cachedSearchJson(probe, cache, "q", 5)).count).toBe(2);
    expect(probe.calls).toBe(2);
  });
});
