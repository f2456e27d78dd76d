import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./support/backends.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";

// One data directory for both gateways below, so the second finds the first one's index files.
const dataDir = tempDir("corpus");
let gw: TestGateway;
let key: string;
type Listed = { name: string; tokens: number; documents: number };
// The listing on a fresh data directory, before any index exists: sizes the sources know without building.
let listedBeforeBuild: Listed[];
beforeAll(async () => {
  gw = await startTestGateway({ env: { DATA_DIR: dataDir } });
  key = (await gw.key()).key;
  listedBeforeBuild = (await (await gw.request("/v1/corpus/")).json()).corpora;
  // The listing starts building coca in the background, without any search asking for it.
  const cocaBuilt = () =>
    fs.existsSync(path.join(dataDir, "corpus-index")) &&
    fs.readdirSync(path.join(dataDir, "corpus-index")).some((f) => /^coca-.*\.bin$/.test(f));
  for (let waited = 0; !cocaBuilt(); waited += 200) {
    if (waited > 60_000) throw new Error("the listing did not start building coca");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // Building all four indexes takes seconds on a busy machine: in the hook, not in a test's budget.
  for (const corpus of ["coca", "old_english", "middle_english", "early_modern"]) {
    expect((await get(`/v1/corpus/search?q=the&corpus=${corpus}&limit=1`)).status).toBe(200);
  }
});
afterAll(async () => {
  await gw?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const get = (p: string, withKey = true) => gw.request(p, withKey ? { headers: { "X-API-Key": key } } : {});
async function json(p: string) {
  const res = await get(p);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

describe("GET /v1/corpus/", () => {
  it("answers without a key, with every corpus's real token and document counts", async () => {
    const res = await get("/v1/corpus/", false);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.name).toBe("Corpus");
    expect(Object.keys(body.endpoints)).toEqual(["search", "collocations", "frequency"]);
    const corpora = Object.fromEntries(body.corpora.map((c: { name: string }) => [c.name, c]));
    expect(Object.keys(corpora)).toEqual(["coca", "old_english", "middle_english", "early_modern"]);
    // The shipped periods' counts are documents.json's word totals (SOURCE.md).
    expect(corpora.old_english).toMatchObject({ tokens: 124_267, documents: 73 });
    expect(corpora.middle_english).toMatchObject({ tokens: 219_641, documents: 26 });
    expect(corpora.early_modern).toMatchObject({ tokens: 1_056_319, documents: 45 });
    expect(corpora.coca.documents).toBe(500 + 233);
    expect(corpora.coca.tokens).toBeGreaterThan(2_500_000);
    expect(corpora.coca.description).toMatch(/stand-in for COCA/);
    expect(corpora.coca.description).toMatch(/Brown/);
  });

  it("lists the sizes before any index is built exactly as the built indexes count them", async () => {
    const strip = (c: Listed) => ({ name: c.name, tokens: c.tokens, documents: c.documents });
    const built = (await (await get("/v1/corpus/", false)).json()).corpora.map(strip);
    expect(listedBeforeBuild.map(strip)).toEqual(built);
  });

  it("also answers with a key, and on the path without the slash", async () => {
    expect((await get("/v1/corpus/")).status).toBe(200);
    expect((await get("/v1/corpus", false)).status).toBe(200);
    const bad = await gw.request("/v1/corpus/", { headers: { "X-API-Key": "sk_not_a_real_key" } });
    expect(bad.status).toBe(401);
  });
});

describe("GET /v1/corpus/search", () => {
  it("needs a key", async () => {
    const res = await get("/v1/corpus/search?q=the", false);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });

  it("returns KWIC lines from coca by default, total counting every match, with rate-limit headers", async () => {
    const res = await get("/v1/corpus/search?q=the&limit=3");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
    expect(res.headers.get("X-RateLimit-Remaining")).toMatch(/^\d+$/);
    const body = await res.json();
    expect(body.corpus).toBe("coca");
    expect(body.results).toHaveLength(3);
    expect(body.total).toBeGreaterThan(100_000);
    expect(body.results[0]).toEqual({
      left: "",
      word: "The",
      right: "Fulton County Grand Jury said",
      source: "Brown A01: The Atlanta Constitution",
      document: "brown-a01",
      year: 1961,
    });
  });

  it("defaults to 100 lines of 5 words' context", async () => {
    const body = await json("/v1/corpus/search?q=of");
    expect(body.results).toHaveLength(100);
    const full = body.results.find((l: { left: string; right: string }) => l.left && l.right);
    expect(full.left.split(" ").length).toBeGreaterThanOrEqual(5);
    expect(full.right.match(/[A-Za-z']+/g)).toHaveLength(5);
  });

  it("accepts query as an alias of q, and matches case-insensitively showing the text as written", async () => {
    const a = await json("/v1/corpus/search?q=LOVE&corpus=early_modern&limit=5");
    const b = await json("/v1/corpus/search?query=love&corpus=early_modern&limit=5");
    expect(b.results).toEqual(a.results);
    expect(b.total).toBe(a.total);
    expect(new Set(a.results.map((l: { word: string }) => l.word.toLowerCase()))).toEqual(new Set(["love"]));
  });

  it("expands wildcards and finds phrases, with * for any one word", async () => {
    const wild = await json("/v1/corpus/search?q=lov*&corpus=early_modern&limit=500");
    const forms = new Set(wild.results.map((l: { word: string }) => l.word.toLowerCase()));
    expect(forms.size).toBeGreaterThan(3);
    for (const w of forms) expect(w).toMatch(/^lov/);
    const suffix = await json("/v1/corpus/search?q=*ness&limit=20");
    for (const l of suffix.results) expect(l.word.toLowerCase()).toMatch(/ness$/);
    const phrase = await json("/v1/corpus/search?q=thou%20art&corpus=early_modern&limit=5");
    expect(phrase.total).toBeGreaterThan(100);
    for (const l of phrase.results) expect(l.word.toLowerCase()).toBe("thou art");
    const gap = await json("/v1/corpus/search?q=the%20*%20of&limit=5");
    for (const l of gap.results) expect(l.word).toMatch(/^the \S+ of$/i);
    expect((await json("/v1/corpus/search?q=ice%20cream")).total).toBeGreaterThan(0);
  });

  it("searches each historical corpus", async () => {
    const oe = await json("/v1/corpus/search?q=hw%C3%A6t&corpus=old_english&limit=1&context=3");
    expect(oe.total).toBeGreaterThan(0);
    expect(oe.results[0].word.toLowerCase()).toBe("hwæt");
    const me = await json("/v1/corpus/search?q=pilgrimage&corpus=middle_english&limit=1");
    expect(me.results[0].source).toMatch(/Prologue|Tale/);
    expect(me.results[0].year).toBeGreaterThan(1300);
  });

  it("honours context and limit, up to their maxima", async () => {
    const none = await json("/v1/corpus/search?q=king&corpus=early_modern&context=0&limit=2");
    expect(none.results).toEqual([
      expect.objectContaining({ left: "", right: "" }),
      expect.objectContaining({ left: "", right: "" }),
    ]);
    expect((await json("/v1/corpus/search?q=the&limit=500&context=50")).results).toHaveLength(500);
    for (const bad of ["limit=501", "limit=0", "context=51", "limit=ten", "context=-1"]) {
      const res = await get(`/v1/corpus/search?q=the&${bad}`);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it("reads an empty optional parameter as not sent (context= was 0 words, not the default 5)", async () => {
    const empty = await json("/v1/corpus/search?q=king&corpus=early_modern&limit=3&context=");
    expect(empty).toEqual(await json("/v1/corpus/search?q=king&corpus=early_modern&limit=3"));
    expect(empty.results[0].left).not.toBe("");
    expect((await json("/v1/corpus/search?q=king&limit=&corpus=")).results).toHaveLength(100);
    expect((await json("/v1/corpus/collocations?word=strong&corpus=&limit=&position=&window=&min_freq=")).limit).toBe(
      20,
    );
    expect((await json("/v1/corpus/frequency?word=thou&corpus=")).corpus).toBe("all");
    expect((await json("/v1/corpus/search?q=&query=king&limit=1")).query).toBe("king");
  });

  it("documents its numeric parameters in OpenAPI as plain integers with their bounds (context was once 'integer or null')", async () => {
    const doc = await (await gw.request("/openapi.json")).json();
    const params = (p: string) =>
      Object.fromEntries(doc.paths[p].get.parameters.map((x: { name: string; schema: unknown }) => [x.name, x.schema]));
    expect(params("/v1/corpus/search").context).toMatchObject({ type: "integer", minimum: 0, maximum: 50, default: 5 });
    expect(params("/v1/corpus/search").limit).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 500,
      default: 100,
    });
    expect(params("/v1/corpus/collocations").limit).toMatchObject({ type: "integer", minimum: 1, maximum: 200 });
  });

  it("answers 400 for a missing q, an unknown corpus, or a query with no words", async () => {
    for (const p of [
      "/v1/corpus/search",
      "/v1/corpus/search?q=",
      "/v1/corpus/search?q=the&corpus=latin",
      "/v1/corpus/search?q=*",
      "/v1/corpus/search?q=1961",
    ]) {
      const res = await get(p);
      expect(res.status, p).toBe(400);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await (await get("/v1/corpus/search")).json()).error).toMatch(/q is required/);
  });

  it("gives total 0 and no lines for a word that does not occur", async () => {
    expect(await json("/v1/corpus/search?q=xyzzyqua")).toEqual({
      corpus: "coca",
      query: "xyzzyqua",
      results: [],
      total: 0,
    });
  });
});

describe("GET /v1/corpus/collocations", () => {
  it("needs a key and a word", async () => {
    expect((await get("/v1/corpus/collocations?word=strong", false)).status).toBe(401);
    expect((await get("/v1/corpus/collocations")).status).toBe(400);
    expect((await get("/v1/corpus/collocations?word=strong&position=middle")).status).toBe(400);
    expect((await get("/v1/corpus/collocations?word=strong&corpus=latin")).status).toBe(400);
  });

  it("lists 20 collocates by default, sorted by MI, each with frequency, mi and t_score", async () => {
    const body = await json("/v1/corpus/collocations?word=strong");
    expect(body).toMatchObject({ word: "strong", corpus: "coca", window: 4, position: "all", min_freq: 3, limit: 20 });
    expect(body.node_frequency).toBeGreaterThan(100);
    expect(body.collocates).toHaveLength(20);
    for (const c of body.collocates) {
      expect(c).toEqual({
        word: expect.any(String),
        frequency: expect.any(Number),
        mi: expect.any(Number),
        t_score: expect.any(Number),
      });
      expect(c.frequency).toBeGreaterThanOrEqual(3);
      expect(c.word).not.toBe("strong");
    }
    const mis = body.collocates.map((c: { mi: number }) => c.mi);
    expect(mis).toEqual([...mis].sort((a, b) => b - a));
  });

  it("defaults to 10 collocates in Form B (recognised by its corpus parameter)", async () => {
    const formB = await json("/v1/corpus/collocations?word=strong&corpus=coca");
    expect(formB.limit).toBe(10);
    expect(formB.collocates).toHaveLength(10);
    const formA = await json("/v1/corpus/collocations?word=strong");
    expect(formB.collocates).toEqual(formA.collocates.slice(0, 10));
    expect((await get("/v1/corpus/collocations?word=strong&limit=201")).status).toBe(400);
  });

  it("honours position, window, min_freq, limit and corpus", async () => {
    const right = await json(
      "/v1/corpus/collocations?word=thou&corpus=early_modern&position=right&window=1&min_freq=20&limit=200",
    );
    expect(right.collocates.map((c: { word: string }) => c.word)).toContain("art");
    expect(
      (await json("/v1/corpus/collocations?word=thou&corpus=early_modern&position=right&window=1&min_freq=20&limit=5"))
        .collocates,
    ).toHaveLength(5);
    for (const c of right.collocates) expect(c.frequency).toBeGreaterThanOrEqual(20);
    // "thou art" and "art thou": each side counts its own, and both sides together count both.
    const art = async (position: string) => {
      const body = await json(
        `/v1/corpus/collocations?word=thou&corpus=early_modern&position=${position}&window=1&min_freq=50&limit=200`,
      );
      return body.collocates.find((c: { word: string }) => c.word === "art").frequency as number;
    };
    const [leftArt, rightArt, allArt] = [await art("left"), await art("right"), await art("all")];
    expect(leftArt).toBeGreaterThan(0);
    expect(rightArt).toBeGreaterThan(leftArt);
    expect(leftArt + rightArt).toBe(allArt);
  });
});

describe("GET /v1/corpus/frequency", () => {
  it("needs a key and a word", async () => {
    expect((await get("/v1/corpus/frequency?word=the", false)).status).toBe(401);
    expect((await get("/v1/corpus/frequency")).status).toBe(400);
    expect((await get("/v1/corpus/frequency?word=the&corpus=latin")).status).toBe(400);
  });

  it("counts over all corpora by default, by decade, register and corpus", async () => {
    const body = await json("/v1/corpus/frequency?word=thou");
    expect(body.corpus).toBe("all");
    expect(body.total).toBe(body.count);
    expect(body.by_corpus.map((c: { corpus: string }) => c.corpus)).toEqual([
      "coca",
      "old_english",
      "middle_english",
      "early_modern",
    ]);
    expect(body.by_corpus.reduce((s: number, c: { count: number }) => s + c.count, 0)).toBe(body.total);
    expect(body.by_decade.reduce((s: number, d: { count: number }) => s + d.count, 0)).toBe(body.total);
    expect(body.by_register.reduce((s: number, r: { count: number }) => s + r.count, 0)).toBe(body.total);
    const em = body.by_corpus.find((c: { corpus: string }) => c.corpus === "early_modern");
    const coca = body.by_corpus.find((c: { corpus: string }) => c.corpus === "coca");
    expect(em.per_million).toBeGreaterThan(coca.per_million * 10);
    expect(body.per_million).toBeCloseTo((body.total / body.tokens) * 1e6, 1);
  });

  it("profiles one corpus: Brown's 1960s and registers, and the addresses' decades", async () => {
    const body = await json("/v1/corpus/frequency?word=government&corpus=coca");
    expect(body.corpus).toBe("coca");
    expect(body.by_corpus).toHaveLength(1);
    const registers = body.by_register.map((r: { register: string }) => r.register);
    expect(registers).toEqual(
      expect.arrayContaining(["press", "fiction", "academic", "religion", "spoken/political address"]),
    );
    const decades = body.by_decade.map((d: { decade: number }) => d.decade);
    expect(decades[0]).toBe(1790);
    expect(decades).toContain(1960);
    expect(decades.at(-1)).toBe(2020);
    const sixties = body.by_decade.find((d: { decade: number }) => d.decade === 1960);
    expect(sixties.per_million).toBeCloseTo((sixties.count / sixties.tokens) * 1e6, 1);
  });
});

describe("the on-disk index cache", () => {
  it("is written under DATA_DIR/corpus-index and reused by the next gateway without rebuilding", async () => {
    const dir = path.join(dataDir, "corpus-index");
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".bin"))
      .sort();
    expect(files.map((f) => f.replace(/-[0-9a-f]{16}\.bin$/, ""))).toEqual([
      "coca",
      "early_modern",
      "middle_english",
      "old_english",
    ]);
    const mtimes = files.map((f) => fs.statSync(path.join(dir, f)).mtimeMs);
    const before = await json("/v1/corpus/search?q=lov*&corpus=early_modern&limit=50");
    await gw.close();

    gw = await startTestGateway({ env: { DATA_DIR: dataDir } });
    key = (await gw.key()).key;
    const after = await json("/v1/corpus/search?q=lov*&corpus=early_modern&limit=50");
    expect(after).toEqual(before);
    await json("/v1/corpus/search?q=the");
    expect(
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".bin"))
        .sort(),
    ).toEqual(files);
    expect(files.map((f) => fs.statSync(path.join(dir, f)).mtimeMs)).toEqual(mtimes);
  });
});
