import { describe, expect, it } from "vitest";
import { useGateway } from "./support/use-gateway.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("/v1/linguistics", () => {
  const t = useGateway();
  const { get } = t;
  const json = async (path: string, status = 200): Promise<Json> => {
    const res = await get(path);
    const body = await res.json();
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(status);
    return body;
  };

  describe("GET /v1/linguistics/ (index, key optional)", () => {
    it("answers without a key, with coverage equal to the rows loaded and each source's licence and citation", async () => {
      const res = await get("/v1/linguistics/", false);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.coverage).toEqual({
        languages: 8605,
        languages_with_iso639_3: 7853,
        phonemes: 105484,
        phoneme_inventories: 3020,
        segments: 3142,
        wals_parameters: 192,
        wals_languages: 2662,
        wals_datapoints: 76475,
      });
      expect(body.sources.map((s: Json) => [s.name, s.license.split(" (")[0]])).toEqual([
        ["Glottolog", "CC BY 4.0"],
        ["WALS", "CC BY 4.0"],
        ["PHOIBLE", "CC BY 4.0"],
      ]);
      expect(body.sources[0].citation).toContain("Glottolog 5.1");
      expect(body.sources[2].citation).toContain("10.5281/zenodo.2626687");
      expect(body.endpoints.map((e: Json) => e.path)).toContain("/v1/linguistics/languages/{code}");
    });

    it("also answers with a key, and then reports rate-limit headers", async () => {
      const res = await get("/v1/linguistics/");
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
    });

    it("refuses a wrong key with 401, and documents 401/403/429 in OpenAPI", async () => {
      const res = await t.gw.request("/v1/linguistics/", { headers: { "X-API-Key": "sk_wrong" } });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
      const doc = (await (await t.gw.request("/openapi.json")).json()) as Json;
      expect(Object.keys(doc.paths["/v1/linguistics"].get.responses)).toEqual(
        expect.arrayContaining(["200", "401", "403", "429"]),
      );
    });

    it("coverage agrees with what the list and phoneme endpoints count", async () => {
      const overview = await (await get("/v1/linguistics/", false)).json();
      expect((await json("/v1/linguistics/languages?limit=1")).total).toBe(overview.coverage.languages);
      expect((await json("/v1/linguistics/phonemes?limit=1")).total).toBe(overview.coverage.segments);
      expect((await json("/v1/linguistics/features")).total).toBe(overview.coverage.wals_parameters);
    });
  });

  describe("keyed routes", () => {
    it.each([
      "/v1/linguistics/languages",
      "/v1/linguistics/languages/eng",
      "/v1/linguistics/phonemes",
      "/v1/linguistics/features",
      "/v1/linguistics/search?q=x",
    ])("%s is 401 without a key", async (path) => {
      const res = await get(path, false);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    });

    it("report rate-limit headers", async () => {
      const res = await get("/v1/linguistics/languages?limit=1");
      for (const h of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"])
        expect(res.headers.get(h)).toMatch(/^\d+$/);
    });
  });

  describe("GET /v1/linguistics/languages", () => {
    it("defaults to 50 from offset 0 (Form A), sorted by name, in the documented item shape", async () => {
      const body = await json("/v1/linguistics/languages");
      expect(body).toMatchObject({ total: 8605, limit: 50, offset: 0 });
      expect(body.page).toBeUndefined();
      expect(body.languages).toHaveLength(50);
      expect(Object.keys(body.languages[0]).sort()).toEqual([
        "family",
        "glottocode",
        "iso",
        "latitude",
        "longitude",
        "name",
        "region",
        "status",
      ]);
    });

    it("pages consistently: consecutive pages tile the list with no gap or overlap", async () => {
      const first = await json("/v1/linguistics/languages?region=australia&limit=30&offset=0");
      const second = await json("/v1/linguistics/languages?region=australia&limit=30&offset=30");
      const both = await json("/v1/linguistics/languages?region=australia&limit=60&offset=0");
      expect(first.total).toBe(389);
      expect(second.total).toBe(389);
      expect([...first.languages, ...second.languages].map((l: Json) => l.glottocode)).toEqual(
        both.languages.map((l: Json) => l.glottocode),
      );
      const last = await json("/v1/linguistics/languages?region=australia&limit=30&offset=380");
      expect(last.languages).toHaveLength(9);
      expect((await json("/v1/linguistics/languages?region=australia&offset=5000")).languages).toEqual([]);
    });

    it("recognises Form B by page/per_page, defaulting to 100 a page", async () => {
      const body = await json("/v1/linguistics/languages?page=2");
      expect(body).toMatchObject({ total: 8605, page: 2, per_page: 100, limit: 100, offset: 100 });
      expect(body.languages).toHaveLength(100);
      const formA = await json("/v1/linguistics/languages?limit=100&offset=100");
      expect(body.languages).toEqual(formA.languages);
    });

    it("filters by family name or glottocode (any case), region and status, together", async () => {
      const byName = await json("/v1/linguistics/languages?family=indo-european&limit=1000");
      const byCode = await json("/v1/linguistics/languages?family=INDO1319&limit=1000");
      expect(byName.total).toBeGreaterThan(400);
      expect(byCode.total).toBe(byName.total);
      expect(byName.languages.every((l: Json) => l.family === "Indo-European")).toBe(true);
      const combined = await json(
        "/v1/linguistics/languages?family=Indo-European&region=eurasia&status=extinct&limit=1000",
      );
      expect(combined.total).toBeGreaterThan(0);
      expect(combined.total).toBeLessThan(byName.total);
      expect(
        combined.languages.every(
          (l: Json) => l.family === "Indo-European" && l.region === "Eurasia" && l.status === "extinct",
        ),
      ).toBe(true);
      const nearly = await json("/v1/linguistics/languages?status=nearly_extinct&limit=1");
      expect(nearly.total).toBe(316);
      expect(nearly.languages[0].status).toBe("nearly extinct");
      const endangered = await json("/v1/linguistics/languages?status=endangered&limit=1000");
      expect(endangered.total).toBe(1646 + 1847 + 436 + 316);
      expect(new Set(endangered.languages.map((l: Json) => l.status))).toEqual(
        new Set(["threatened", "shifting", "moribund", "nearly extinct"]),
      );
    });

    it("reads a blank parameter (?limit=, a form field left empty) as absent, so the default applies", async () => {
      const all = await json("/v1/linguistics/languages");
      const blank = await json("/v1/linguistics/languages?family=&region=&status=&limit=&offset=");
      expect(blank).toEqual(all);
      expect(blank).toMatchObject({ limit: 50, offset: 0, total: 8605 });
      expect(await json("/v1/linguistics/languages?page=&per_page=")).toEqual(all);
      expect(await json("/v1/linguistics/languages?page=2&offset=")).toMatchObject({
        page: 2,
        per_page: 100,
        offset: 100,
      });
      expect(await json("/v1/linguistics/phonemes?language=&type=&manner=&place=&limit=&offset=")).toEqual(
        await json("/v1/linguistics/phonemes"),
      );
      expect(await json("/v1/linguistics/features?language=&feature=&category=")).toEqual(
        await json("/v1/linguistics/features"),
      );
      expect(await json("/v1/linguistics/search?q=english&type=&limit=")).toEqual(
        await json("/v1/linguistics/search?q=english"),
      );
      expect(await json("/v1/linguistics/languages/eng?inventory=")).toEqual(
        await json("/v1/linguistics/languages/eng"),
      );
      expect((await get("/v1/linguistics/search?q=")).status).toBe(400);
    });

    it("answers an unknown family with an empty page, and refuses bad region, status and paging", async () => {
      expect((await json("/v1/linguistics/languages?family=klingonic")).total).toBe(0);
      for (const query of [
        "region=atlantis",
        "status=thriving",
        "limit=0",
        "limit=1001",
        "limit=abc",
        "offset=-1",
        "page=0",
        "per_page=5000",
        "limit=10&page=2",
      ]) {
        const res = await get(`/v1/linguistics/languages?${query}`);
        expect(res.status, query).toBe(400);
        expect(await res.json()).toEqual({ error: expect.any(String) });
      }
    });
  });

  describe("GET /v1/linguistics/languages/{code}", () => {
    it("returns Glottolog data, WALS features and the PHOIBLE inventory for an ISO code", async () => {
      const body = await json("/v1/linguistics/languages/eng");
      expect(body).toMatchObject({
        iso: "eng",
        glottocode: "stan1293",
        name: "English",
        family: "Indo-European",
        region: "Eurasia",
        in_glottolog: true,
      });
      expect(body.classification).toContain("Germanic");
      expect(body.wals_languages.map((l: Json) => l.wals_code)).toEqual(["eng"]);
      const consonants = body.wals_features.find((f: Json) => f.parameter_id === "1A");
      expect(consonants).toMatchObject({ name: "Consonant Inventories", value: { code: "1A-3", name: "Average" } });
      expect(body.phoneme_inventory.consonants).toEqual(expect.arrayContaining(["b", "d", "θ", "ð", "ŋ", "ʃ"]));
      expect(body.phoneme_inventory.vowels.length).toBeGreaterThan(5);
      expect(body.phoneme_inventory.tones).toEqual([]);
      expect(body.phoneme_inventory.source).toEqual(expect.any(String));
      expect(body.phoneme_inventories.length).toBeGreaterThan(1);
    });

    it("accepts a glottocode and upper case, and a chosen inventory", async () => {
      const byGlottocode = await json("/v1/linguistics/languages/stan1293");
      expect((await json("/v1/linguistics/languages/ENG")).glottocode).toBe("stan1293");
      const other = byGlottocode.phoneme_inventories[1].inventory_id;
      expect((await json(`/v1/linguistics/languages/eng?inventory=${other}`)).phoneme_inventory.inventory_id).toBe(
        other,
      );
      expect((await json("/v1/linguistics/languages/eng?inventory=1", 404)).error).toContain("inventory 1");
    });

    it("groups tones for a tone language", async () => {
      const body = await json("/v1/linguistics/languages/cmn");
      expect(body.phoneme_inventory.tones.length).toBeGreaterThan(0);
    });

    it("still serves a code Glottolog does not list as a language when PHOIBLE or WALS has it", async () => {
      const body = await json("/v1/linguistics/languages/hrv");
      expect(body).toMatchObject({ iso: "hrv", in_glottolog: false, family: null });
      expect(body.phoneme_inventory).not.toBeNull();
    });

    it("404s an unknown code and 400s a malformed one", async () => {
      expect(await json("/v1/linguistics/languages/zzz", 404)).toEqual({ error: "unknown language 'zzz'" });
      expect(await json("/v1/linguistics/languages/abcd0000", 404)).toEqual({ error: "unknown language 'abcd0000'" });
      expect((await json("/v1/linguistics/languages/english-language", 400)).error).toContain("ISO 639-3");
    });
  });

  describe("GET /v1/linguistics/phonemes", () => {
    it("lists segments across inventories, most widespread first, default 100", async () => {
      const body = await json("/v1/linguistics/phonemes");
      expect(body).toMatchObject({ total: 3142, limit: 100, offset: 0 });
      expect(body.phonemes).toHaveLength(100);
      expect(body.phonemes[0]).toMatchObject({
        segment: "m",
        type: "consonant",
        manner: "nasal",
        place: "bilabial",
        inventories: 2915,
      });
      expect(body.phonemes[0].frequency).toBeCloseTo(2915 / 3020, 3);
      expect(body.phonemes[0].languages).toBeLessThanOrEqual(body.phonemes[0].inventories);
      const counts = body.phonemes.map((p: Json) => p.inventories);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    });

    it("filters by type, manner and place", async () => {
      const vowels = await json("/v1/linguistics/phonemes?type=vowel&limit=1000");
      expect(vowels.phonemes.every((p: Json) => p.type === "vowel")).toBe(true);
      const velarStops = await json("/v1/linguistics/phonemes?manner=stop&place=velar&limit=1000");
      expect(velarStops.total).toBeGreaterThan(10);
      expect(velarStops.phonemes.every((p: Json) => p.manner === "stop" && p.place === "velar")).toBe(true);
      expect(velarStops.phonemes.map((p: Json) => p.segment)).toContain("k");
      const tones = await json("/v1/linguistics/phonemes?type=Tone&limit=1000");
      expect(tones.total).toBe(60);
    });

    it("lists one language's phonemes, consonants first", async () => {
      const body = await json("/v1/linguistics/phonemes?language=eng&limit=1000");
      expect(body.language).toMatchObject({ iso: "eng", glottocode: "stan1293", name: "English" });
      expect(body.language.inventories.length).toBeGreaterThan(1);
      const segments = body.phonemes.map((p: Json) => p.segment);
      expect(segments).toEqual(expect.arrayContaining(["p", "b", "ʃ", "i"]));
      const types = body.phonemes.map((p: Json) => p.type);
      expect(types.indexOf("vowel")).toBeGreaterThan(types.lastIndexOf("consonant"));
      expect(body.phonemes[0].language_inventories).toBeGreaterThan(0);
      const fricatives = await json("/v1/linguistics/phonemes?language=eng&manner=fricative");
      expect(fricatives.phonemes.every((p: Json) => p.manner === "fricative")).toBe(true);
    });

    it("honours limit and offset, and refuses bad input", async () => {
      const page = await json("/v1/linguistics/phonemes?limit=5&offset=1");
      const wide = await json("/v1/linguistics/phonemes?limit=6");
      expect(page.phonemes.map((p: Json) => p.segment)).toEqual(wide.phonemes.slice(1).map((p: Json) => p.segment));
      expect((await json("/v1/linguistics/phonemes?language=zzz", 404)).error).toBe("unknown language 'zzz'");
      for (const query of ["type=click", "manner=squeak", "place=nose", "limit=0", "limit=1001"])
        expect((await get(`/v1/linguistics/phonemes?${query}`)).status, query).toBe(400);
    });
  });

  describe("GET /v1/linguistics/features", () => {
    it("lists all 192 WALS features with value distributions", async () => {
      const body = await json("/v1/linguistics/features");
      expect(body.total).toBe(192);
      const first = body.features[0];
      expect(first).toMatchObject({ id: "1A", name: "Consonant Inventories", category: "phonology", languages: 563 });
      expect(first.values.reduce((sum: number, v: Json) => sum + v.count, 0)).toBe(563);
    });

    it("filters by category and by feature id (any case)", async () => {
      const phonology = await json("/v1/linguistics/features?category=phonology");
      expect(phonology.total).toBe(20);
      expect(phonology.features.every((f: Json) => f.area === "Phonology")).toBe(true);
      expect((await json("/v1/linguistics/features?category=Morphology")).total).toBe(58);
      expect((await json("/v1/linguistics/features?category=syntax")).total).toBe(97);
      const one = await json("/v1/linguistics/features?feature=81a");
      expect(one.features.map((f: Json) => f.id)).toEqual(["81A"]);
      expect(one.features[0].values.find((v: Json) => v.code === "81A-1")).toMatchObject({ name: "SOV" });
    });

    it("gives a language's values, filterable", async () => {
      const body = await json("/v1/linguistics/features?language=eng");
      expect(body.language).toMatchObject({ iso: "eng", wals_codes: ["eng"] });
      expect(body.total).toBeGreaterThan(100);
      const order = await json("/v1/linguistics/features?language=eng&feature=81A");
      expect(order.features).toEqual([
        expect.objectContaining({
          parameter_id: "81A",
          value: expect.objectContaining({ code: "81A-2", name: "SVO" }),
        }),
      ]);
      const syntax = await json("/v1/linguistics/features?language=jpn&category=syntax");
      expect(syntax.features.every((f: Json) => f.category === "syntax")).toBe(true);
    });

    it("404s unknown features and languages, 400s malformed ids and categories", async () => {
      expect((await json("/v1/linguistics/features?feature=999Z", 404)).error).toContain("999Z");
      expect((await json("/v1/linguistics/features?language=zzz", 404)).error).toBe("unknown language 'zzz'");
      expect((await get("/v1/linguistics/features?feature=consonants")).status).toBe(400);
      expect((await get("/v1/linguistics/features?category=pragmatics")).status).toBe(400);
    });
  });

  describe("GET /v1/linguistics/search", () => {
    it("searches every type by default, exact matches first, diacritics folded", async () => {
      const body = await json("/v1/linguistics/search?q=english");
      expect(body).toMatchObject({ query: "english", type: "all", limit: 20 });
      expect(Object.keys(body.results).sort()).toEqual(["features", "languages", "phonemes"]);
      expect(body.results.languages[0]).toMatchObject({ name: "English", iso: "eng", match: "exact" });
      const tiers = body.results.languages.map((l: Json) => l.match);
      expect(tiers).toEqual(
        [...tiers].sort(
          (a, b) => ["exact", "prefix", "substring"].indexOf(a) - ["exact", "prefix", "substring"].indexOf(b),
        ),
      );
      const folded = await json("/v1/linguistics/search?q=VOLAPUK&type=languages");
      expect(folded.results.languages[0]).toMatchObject({ name: "Volapük", match: "exact" });
    });

    it("finds languages by code, phonemes by symbol or description, features by id", async () => {
      expect((await json("/v1/linguistics/search?q=deu&type=languages")).results.languages[0]).toMatchObject({
        iso: "deu",
        match: "exact",
      });
      const ph = await json("/v1/linguistics/search?q=ŋ&type=phonemes");
      expect(ph.results.phonemes[0]).toMatchObject({ segment: "ŋ", match: "exact" });
      const described = await json("/v1/linguistics/search?q=velar%20nasal&type=phonemes");
      expect(described.results.phonemes.map((p: Json) => p.segment)).toContain("ŋ");
      const feature = await json("/v1/linguistics/search?q=81a&type=features");
      expect(feature.results.features[0]).toMatchObject({ id: "81A", match: "exact" });
      expect(Object.keys(feature.results)).toEqual(["features"]);
    });

    it("limits each type and reports totals", async () => {
      const body = await json("/v1/linguistics/search?q=a&limit=3");
      for (const type of ["languages", "phonemes", "features"]) {
        expect(body.results[type].length).toBeLessThanOrEqual(3);
        expect(body.totals[type]).toBeGreaterThanOrEqual(body.results[type].length);
      }
      expect(body.totals.languages).toBeGreaterThan(3);
    });

    it("400s a missing q, a bad type and a bad limit", async () => {
      for (const query of ["", "q=", "q=%20", "q=x&type=dialects", "q=x&limit=0", "q=x&limit=101", "q=x&limit=ten"]) {
        const res = await get(`/v1/linguistics/search?${query}`);
        expect(res.status, query).toBe(400);
        expect(await res.json()).toEqual({ error: expect.any(String) });
      }
    });
  });
});
