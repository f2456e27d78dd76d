import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LocalResponse, SearchResponse } from "../lib/api/aac/routes.ts";
import { startFakeArasaac, type FakeArasaac } from "./fakes/arasaac.ts";
import { useGateway } from "./support/use-gateway.ts";

type Symbol = {
  id: number;
  word: string;
  keyword: string;
  keywords: string[];
  icon_url: string;
  url: string;
  source: string;
  license: string;
  score: number;
  author?: string;
  attribution?: string;
};

describe("AAC", () => {
  let arasaac: FakeArasaac;
  const t = useGateway({
    fakes: async () => [(arasaac = await startFakeArasaac())],
    env: () => ({ UPSTREAM_ARASAAC_URL: arasaac.url }),
    key: { minute: 10_000 },
  });
  const get = (url: string, headers: Record<string, string> = { "X-API-Key": t.key }) => t.gw.request(url, { headers });
  const post = (body: unknown, headers: Record<string, string> = { "X-API-Key": t.key }) =>
    t.gw.request("/v1/aac/sentence", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const servedFromPublic = (icon: string) =>
    icon.startsWith("/aac/") && existsSync(path.join(process.cwd(), "public", icon));

  describe("GET /v1/aac/symbols/search", () => {
    it("finds local symbols by default, ranked, with the symbol and Form A record fields", async () => {
      const res = await get("/v1/aac/symbols/search?q=dog");
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
      expect(res.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
      expect(res.headers.get("X-RateLimit-Reset")).toMatch(/^\d+$/);
      const text = await res.text();
      const body = JSON.parse(text);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      // The pre-serialised answer is byte for byte what serialising it would give.
      expect(text).toBe(JSON.stringify(body));
      expect(SearchResponse.parse(body)).toEqual(body);
      expect(body).toMatchObject({ query: "dog", sources: ["local"], metadata: { limit: 10, language: "en" } });
      expect(body.total).toBeGreaterThanOrEqual(body.results.length);
      const [first, second] = body.results as Symbol[];
      expect(first).toMatchObject({
        word: "dog",
        keyword: "dog",
        source: "mulberry",
        license: "CC BY-SA 4.0",
        score: 1,
        icon_url: "/aac/mulberry/dog.svg",
        url: "/aac/mulberry/dog.svg",
      });
      expect(first!.attribution).toContain("Mulberry Symbols © 2018–2026 Steve Lee");
      expect(second).toMatchObject({ word: "dog", source: "openmoji", score: 1 });
      expect(Number.isInteger(first!.id)).toBe(true);
      expect(first!.keywords).toContain("dog");
      const scores = (body.results as Symbol[]).map((r) => r.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      for (const r of body.results as Symbol[]) expect(servedFromPublic(r.icon_url), r.icon_url).toBe(true);
    });

    it("ranks derived forms, prefixes and typos below exact matches", async () => {
      const top = async (q: string) =>
        (
          (await (await get(`/v1/aac/symbols/search?q=${encodeURIComponent(q)}&limit=1`)).json()).results as Symbol[]
        )[0];
      expect(await top("dogs")).toMatchObject({ keyword: "dog", score: 0.9 });
      expect(await top("running")).toMatchObject({ keyword: "run", score: 0.9 });
      expect((await top("appl"))!.score).toBeGreaterThanOrEqual(0.7);
      expect(await top("elephnat")).toMatchObject({ keyword: "elephant", score: 0.4 });
    });

    it("honours limit and rejects a limit over 20 or a missing q", async () => {
      expect((await (await get("/v1/aac/symbols/search?q=face&limit=20")).json()).results).toHaveLength(20);
      expect((await (await get("/v1/aac/symbols/search?q=face&limit=3")).json()).results).toHaveLength(3);
      for (const bad of [
        "q=face&limit=21",
        "q=face&limit=0",
        "q=face&limit=two",
        "limit=5",
        "q=",
        "q=dog&sources=myspace",
        "q=dog&language=xx",
      ]) {
        const res = await get(`/v1/aac/symbols/search?${bad}`);
        expect(res.status, bad).toBe(400);
        expect(await res.json(), bad).toEqual({ error: expect.any(String) });
      }
    });

    it("merges ARASAAC results (absolute URLs, attribution) when asked, pictolib as an alias", async () => {
      const body = await (await get("/v1/aac/symbols/search?q=dog&sources=local,pictolib&limit=20")).json();
      expect(SearchResponse.parse(body)).toEqual(body);
      expect(body.sources).toEqual(["local", "arasaac"]);
      expect(body.metadata.attribution).toContain("ARASAAC");
      const remote = (body.results as Symbol[]).filter((r) => r.source === "arasaac");
      expect(remote.map((r) => r.id)).toEqual([7202, 2517]);
      expect(remote[0]).toMatchObject({
        icon_url: "https://static.arasaac.org/pictograms/7202/7202_300.png",
        author: "Sergio Palao",
        license: "CC BY-NC-SA 4.0",
        score: 1,
      });
      const sources = (body.results as Symbol[]).map((r) => r.source);
      expect(sources.indexOf("arasaac")).toBe(2);
      expect(body.total).toBeGreaterThan(body.results.length - 1);
    });

    it("requires a key", async () => {
      const res = await get("/v1/aac/symbols/search?q=dog", {});
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    });
  });

  describe("GET /v1/aac/symbols/arasaac and /pictolib", () => {
    it("adapts ARASAAC's search: absolute image URLs, author, attribution, ranked by keyword", async () => {
      for (const p of ["arasaac", "pictolib"]) {
        const res = await get(`/v1/aac/symbols/${p}?q=dog`);
        expect(res.status, p).toBe(200);
        expect(res.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
        const body = await res.json();
        expect(body).toMatchObject({
          query: "dog",
          total: 2,
          source: "arasaac",
          metadata: { language: "en", limit: 10 },
        });
        expect(body.metadata.attribution).toMatch(/Sergio Palao.*Aragón.*CC BY-NC-SA 4.0/);
        expect(body.results[0]).toEqual({
          id: 7202,
          word: "dog",
          keyword: "dog",
          keywords: ["dog", "dogs"],
          icon_url: "https://static.arasaac.org/pictograms/7202/7202_300.png",
          url: "https://static.arasaac.org/pictograms/7202/7202_300.png",
          source: "arasaac",
          license: "CC BY-NC-SA 4.0",
          score: 1,
          author: "Sergio Palao",
          attribution: body.metadata.attribution,
        });
        expect(body.results[1]).toMatchObject({ id: 2517, score: 0.3 });
      }
    });

    it("passes the language in the path and caches answers", async () => {
      const before = arasaac.hits.length;
      const body = await (await get("/v1/aac/symbols/arasaac?q=perro&language=es&limit=1")).json();
      expect(body.results).toHaveLength(1);
      expect(body.results[0]).toMatchObject({ id: 7202, keyword: "perro", score: 1 });
      expect(arasaac.hits.slice(before)).toEqual(["/api/pictograms/es/search/perro"]);
      await get("/v1/aac/symbols/arasaac?q=perro&language=es");
      expect(arasaac.hits.length).toBe(before + 1);
    });

    it("keeps non-Latin queries apart (their own path, cache entry and exact score)", async () => {
      const dog = await (await get(`/v1/aac/symbols/arasaac?q=${encodeURIComponent("Собака")}&language=ru`)).json();
      const cat = await (await get(`/v1/aac/symbols/arasaac?q=${encodeURIComponent("кошка")}&language=ru`)).json();
      expect(dog.results[0]).toMatchObject({ id: 7202, keyword: "собака", score: 1 });
      expect(cat.results[0]).toMatchObject({ id: 7114, keyword: "кошка", score: 1 });
      expect(arasaac.hits).toEqual(
        expect.arrayContaining(["/api/pictograms/ru/search/собака", "/api/pictograms/ru/search/кошка"]),
      );
    });

    it("answers an empty list when ARASAAC has no match (its 404)", async () => {
      const res = await get("/v1/aac/symbols/arasaac?q=qwertyuiop");
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ results: [], total: 0 });
    });

    it("maps an upstream failure to 502, never 500", async () => {
      const res = await get("/v1/aac/symbols/arasaac?q=boom");
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ error: expect.stringContaining("arasaac") });
    });

    it("maps ARASAAC refusing the search (a 4xx other than 404) to 502, not the caller's 400", async () => {
      for (const url of ["/v1/aac/symbols/arasaac?q=refuse", "/v1/aac/symbols/search?q=refuse&sources=pictolib"]) {
        const res = await get(url);
        expect(res.status, url).toBe(502);
        expect(await res.json()).toEqual({ error: expect.stringContaining("arasaac") });
      }
    });

    it("reads language tags in any case, with a region or script, and an empty one as en", async () => {
      for (const tag of ["ES", "es-ES", "es_MX", " es "]) {
        const res = await get(`/v1/aac/symbols/pictolib?q=perro&language=${encodeURIComponent(tag)}`);
        expect(res.status, tag).toBe(200);
        const body = await res.json();
        expect(body.metadata.language, tag).toBe("es");
        expect(body.results[0], tag).toMatchObject({ id: 7202, score: 1 });
      }
      expect((await (await get("/v1/aac/symbols/pictolib?q=dog&language=pt-BR")).json()).metadata.language).toBe("br");
      expect((await (await get("/v1/aac/symbols/pictolib?q=dog&language=")).json()).metadata).toMatchObject({
        language: "en",
      });
      expect((await (await get("/v1/aac/symbols/search?q=dog&language=EN-gb")).json()).metadata.language).toBe("en");
      expect((await get("/v1/aac/symbols/pictolib?q=dog&language=xx-ES")).status).toBe(400);
    });

    it("validates q, limit and language, and requires a key", async () => {
      for (const bad of ["", "?q=dog&limit=21", "?q=dog&language=klingon"])
        expect((await get(`/v1/aac/symbols/arasaac${bad}`)).status, bad).toBe(400);
      expect((await get("/v1/aac/symbols/pictolib?q=dog", {})).status).toBe(401);
    });
  });

  describe("GET /v1/aac/symbols/local", () => {
    it("searches local symbols only, optionally one set", async () => {
      const res = await get("/v1/aac/symbols/local?q=happy");
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(LocalResponse.parse(body)).toEqual(body);
      expect(body).toMatchObject({ query: "happy", source: "local", metadata: { limit: 10, set: "all" } });
      expect(body.metadata.symbols_indexed).toBeGreaterThan(2000);
      expect(body.results[0]).toMatchObject({ keyword: "happy", score: 1, source: "mulberry" });
      const emoji = await (await get("/v1/aac/symbols/local?q=happy&set=openmoji&limit=5")).json();
      expect(emoji.results).toHaveLength(5);
      expect(new Set(emoji.results.map((r: Symbol) => r.source))).toEqual(new Set(["openmoji"]));
      expect((await get("/v1/aac/symbols/local")).status).toBe(400);
      expect((await get("/v1/aac/symbols/local?q=x&set=emoji")).status).toBe(400);
      expect((await get("/v1/aac/symbols/local?q=dog", {})).status).toBe(401);
    });
  });

  describe("POST /v1/aac/sentence", () => {
    it("Form B: words with symbols, phrases as one word, coverage", async () => {
      const res = await post({ sentence: "Thank you, I want ice creams and the dogs!" });
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
      const body = await res.json();
      expect(body).toMatchObject({
        sentence: "Thank you, I want ice creams and the dogs!",
        sources: ["local"],
        language: "en",
      });
      expect(body.words.map((w: { word: string }) => w.word)).toEqual([
        "thank you",
        "i",
        "want",
        "ice creams",
        "and",
        "the",
        "dogs",
      ]);
      const byWord = Object.fromEntries(
        body.words.map((w: { word: string; matched: boolean; symbols: Symbol[] }) => [w.word, w]),
      );
      expect(byWord["thank you"].symbols[0]).toMatchObject({ keyword: "thank you", source: "openmoji", score: 1 });
      expect(byWord["want"].symbols[0]).toMatchObject({ word: "want", source: "mulberry", score: 1 });
      expect(byWord["ice creams"].symbols[0]).toMatchObject({ keyword: "ice cream", score: 0.9 });
      expect(byWord["dogs"].symbols[0]).toMatchObject({ keyword: "dog", score: 0.9 });
      // Core words have symbols (the drawn "the"); a function word without one matches nothing, no emoji's keyword.
      expect(byWord["the"].symbols[0]).toMatchObject({ icon_url: "/aac/core/the.svg", source: "core", score: 1 });
      expect(byWord["i"].symbols[0]).toMatchObject({ icon_url: "/aac/core/i.svg", source: "core", score: 1 });
      expect(byWord["and"]).toEqual({ word: "and", matched: false, symbols: [] });
      const matched = body.words.filter((w: { matched: boolean }) => w.matched).length;
      expect(body.statistics).toEqual({
        total_words: 7,
        matched,
        unmatched: 7 - matched,
        coverage: Math.round((matched / 7) * 1000) / 10,
      });
      for (const w of body.words)
        for (const s of w.symbols) expect(servedFromPublic(s.icon_url), s.icon_url).toBe(true);
    });

    it("Form B: ARASAAC and local together, sources as a list or an array", async () => {
      for (const sources of ["local,arasaac", ["local", "pictolib"]]) {
        const body = await (await post({ sentence: "I want ice cream", sources })).json();
        expect(body.sources).toEqual(["local", "arasaac"]);
        expect(body.words.map((w: { word: string }) => w.word)).toEqual(["i", "want", "ice cream"]);
        const i = body.words[0];
        expect(i.matched).toBe(true);
        // Equal scores: the local (drawn) symbol first, then ARASAAC's.
        expect(i.symbols.map((s: Symbol) => [s.source, s.icon_url])).toEqual([
          ["core", "/aac/core/i.svg"],
          ["arasaac", "https://static.arasaac.org/pictograms/6632/6632_300.png"],
        ]);
        const cream = body.words[2].symbols.map((s: Symbol) => s.source);
        expect(cream).toEqual(expect.arrayContaining(["mulberry", "openmoji", "arasaac"]));
      }
    });

    it("Form A: the best symbol per matched word, ARASAAC by default", async () => {
      const res = await post({ text: "I want ice cream" });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        symbols: [
          { id: 6632, url: "https://static.arasaac.org/pictograms/6632/6632_300.png", word: "i" },
          { id: 5441, url: "https://static.arasaac.org/pictograms/5441/5441_300.png", word: "want" },
          { id: 2400, url: "https://static.arasaac.org/pictograms/2400/2400_300.png", word: "ice cream" },
        ],
      });
      const local = await (await post({ text: "Good morning, dog", symbol_set: "local" })).json();
      expect(local.symbols.map((s: { word: string }) => s.word)).toEqual(["good morning", "dog"]);
      expect(local.symbols[1]).toEqual({ id: expect.any(Number), url: "/aac/mulberry/dog.svg", word: "dog" });
      for (const s of local.symbols) expect(servedFromPublic(s.url)).toBe(true);
    });

    it("rejects a body with neither text nor sentence, bad sources, empty or oversized text, and no key", async () => {
      for (const bad of [
        {},
        { words: "hi" },
        { sentence: "hi", sources: "myspace" },
        { text: "hi", symbol_set: "emoji" },
        { sentence: "" },
        { sentence: "!!!" },
        { text: "x".repeat(1001) },
        { sentence: "a ".repeat(61) },
      ]) {
        const res = await post(bad);
        expect(res.status, JSON.stringify(bad).slice(0, 60)).toBe(400);
        expect(await res.json()).toEqual({ error: expect.any(String) });
      }
      expect((await post({ sentence: "hi" }, {})).status).toBe(401);
    });

    it("rejects a body carrying both forms' text fields, rather than silently picking one", async () => {
      const res = await post({ text: "dog", sentence: "cat" });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: expect.stringMatching(/not both/) });
    });

    it("Form B: words keep their accents, and ARASAAC is asked for the accented word", async () => {
      const body = await (
        await post({ sentence: "¡Camión y CAFÉ!", sources: "local,pictolib", language: "es" })
      ).json();
      expect(body.words.map((w: { word: string }) => w.word)).toEqual(["camión", "y", "café"]);
      expect(body.words[0].symbols[0]).toMatchObject({ id: 2339, source: "arasaac" });
      expect(body.words[2].symbols[0]).toMatchObject({ keyword: "cafe", source: "mulberry", score: 1 });
      expect(arasaac.hits).toContain("/api/pictograms/es/search/camión");
      expect((await (await post({ text: "Café", symbol_set: "local" })).json()).symbols[0]).toMatchObject({
        word: "café",
      });
    });

    it("Form B: reads the language tag like the search routes do", async () => {
      const body = await (await post({ sentence: "perro", sources: "pictolib", language: "es-ES" })).json();
      expect(body).toMatchObject({ language: "es", statistics: { matched: 1 } });
      expect(body.words[0].symbols[0]).toMatchObject({ id: 7202, source: "arasaac" });
    });

    it("maps ARASAAC failure during a sentence to 502", async () => {
      const res = await post({ sentence: "boom", sources: "arasaac" });
      expect(res.status).toBe(502);
    });
  });
});
