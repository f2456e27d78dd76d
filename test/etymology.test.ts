import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useGateway } from "./support/use-gateway.ts";

type Node = { id: string; label: string; language: string; type: string; era: number | null; period?: string };
type Edge = { source: string; target: string; relation: string };

describe("/v1/etymology", () => {
  const t = useGateway({ env: () => ({ ETYMOLOGY_DATA_PATH: undefined }) });
  const explore = (word: string, query = "") =>
    t.gw.request(`/v1/etymology/explore/${encodeURIComponent(word)}${query}`, { headers: { "X-API-Key": t.key } });

  describe("GET /v1/etymology/", () => {
    it("describes the service without a key", async () => {
      const res = await t.gw.request("/v1/etymology/");
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ name: "Etymology", headwords: 25_000, status: "ok" });
      expect(body.features.length).toBeGreaterThan(3);
      expect(Object.keys(body.endpoints)).toEqual([
        "GET /v1/etymology/",
        "GET /v1/etymology/explore/{word}",
        "GET /v1/etymology/health",
      ]);
      expect(body.source).toMatch(/GCIDE/);
      expect(body.licence).toMatch(/GNU General Public License/);
    });

    it("accepts a key, counts it, and answers without the trailing slash too", async () => {
      const res = await t.gw.request("/v1/etymology", { headers: { "X-API-Key": t.key } });
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).not.toBeNull();
      expect((await t.gw.request("/v1/etymology/", { headers: { "X-API-Key": "sk_wrong" } })).status).toBe(401);
    });

    it("documents the 401 and 429 a sent key can cause in OpenAPI, as it can answer them", async () => {
      const doc = (await (await t.gw.request("/openapi.json")).json()) as {
        paths: Record<string, { get: { responses: Record<string, unknown> } }>;
      };
      expect(Object.keys(doc.paths["/v1/etymology"]!.get.responses)).toEqual(
        expect.arrayContaining(["200", "401", "403", "429"]),
      );
    });
  });

  describe("GET /v1/etymology/health", () => {
    it("is ok without a key and counts headwords", async () => {
      const res = await t.gw.request("/v1/etymology/health");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok", headwords: 25_000 });
    });
  });

  describe("GET /v1/etymology/explore/{word}", () => {
    it("needs a key", async () => {
      const res = await t.gw.request("/v1/etymology/explore/water");
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    });

    it("explores water: definitions, pronunciation, lineage, cognates, related words and a network", async () => {
      const res = await explore("water");
      expect(res.status).toBe(200);
      for (const h of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"])
        expect(Number(res.headers.get(h))).toBeGreaterThanOrEqual(0);
      const body = await res.json();
      expect(body).toMatchObject({
        query: "water",
        word: "water",
        headword: "Water",
        matched: "exact",
        pronunciation: "wạˈtẽr",
        parts_of_speech: ["noun", "verb"],
        lineage_order: "oldest_first",
        roots: ["137"],
      });
      expect(body.definitions[0]).toEqual({ definition: expect.stringMatching(/^The fluid/), part_of_speech: "noun" });
      expect(body.lineage).toEqual([
        expect.objectContaining({
          lang: "AS.",
          language: "Anglo-Saxon (Old English)",
          form: "wæter",
          period: "c. 450–1150",
        }),
      ]);
      expect(body.cognates.forms).toContainEqual(
        expect.objectContaining({ lang: "G.", language: "German", form: "wasser" }),
      );
      expect(body.cognates.forms).toContainEqual(
        expect.objectContaining({ lang: "Gr.", language: "Greek", translit: "ydwr" }),
      );
      expect(body.cognates.headwords).toContainEqual({ word: "wet", relation: "shares_root", via: "√137" });
      expect(body.cognates.headwords).toContainEqual({
        word: "hydrate",
        relation: "from_cognate_form",
        via: "Gr. ψδωρ",
      });
      expect(body.related).toContainEqual({ word: "hydra", relation: "cites" });
      expect(body.graph.viz_type).toBe("network");
      expect(body.graph.adj_type).toBe("temporal");
      const nodes: Node[] = body.graph.nodes;
      const edges: Edge[] = body.graph.edges;
      expect(nodes.find((n) => n.id === "n0")).toMatchObject({ label: "water", language: "English", type: "headword" });
      const eras = nodes.map((n) => n.era ?? Infinity);
      expect(eras).toEqual([...eras].sort((a, b) => a - b));
      expect(nodes[0]!.label).toBe("udan");
      const ids = new Set(nodes.map((n) => n.id));
      expect(ids.size).toBe(nodes.length);
      for (const e of edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
    });

    it("gives the lineage of ancient oldest first, languages spelled out", async () => {
      const body = await (await explore("ancient")).json();
      expect(
        body.lineage.map((i: { lang: string; language: string; form: string }) => `${i.language}: ${i.form}`),
      ).toEqual([
        "Latin: ante",
        "Late Latin: antianus",
        "French: ancien",
        "Old English (Middle English in Webster 1913 usage): auncien",
      ]);
      expect(body.related).toContainEqual({ word: "ante", relation: "cites" });
    });

    it.each(["mother", "heart", "night", "star", "love", "house", "father"])(
      "answers %s with a full record",
      async (word) => {
        const res = await explore(word);
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body.word).toBe(word);
        expect(body.definitions.length).toBeGreaterThan(0);
        expect(body.lineage.length).toBeGreaterThan(0);
        expect(body.lineage.every((i: { language: string; lang: string }) => i.language !== i.lang)).toBe(true);
        expect(body.graph.nodes.length).toBeGreaterThan(1);
      },
    );

    it("normalises case and spacing and falls back to the lemma", async () => {
      expect((await (await explore("  WATER ")).json()).word).toBe("water");
      // "mothers" and "hearts" are not headwords; their lemmas are.
      expect(await (await explore("mothers")).json()).toMatchObject({
        query: "mothers",
        word: "mother",
        matched: "lemma",
      });
      expect(await (await explore(" Hearts")).json()).toMatchObject({ word: "heart", matched: "lemma" });
      // "ran" is a GCIDE headword itself, so the exact match wins over the lemma.
      expect(await (await explore("ran")).json()).toMatchObject({ word: "ran", matched: "exact" });
    });

    it("returns a Mermaid flowchart whose edges reference declared nodes", async () => {
      const body = await (await explore("father", "?viz_type=mermaid&adj_type=linguistic")).json();
      expect(body.graph).toMatchObject({ viz_type: "mermaid", adj_type: "linguistic" });
      const [header, ...lines] = (body.graph.mermaid as string).split("\n");
      expect(header).toBe("flowchart LR");
      const declared = lines.map((l) => /^ {4}(n\d+)\["[^"[\]]*"\]$/.exec(l)?.[1]).filter(Boolean);
      const edges = lines.map((l) => /^ {4}(n\d+) -->\|[a-z_]+\| (n\d+)$/.exec(l)).filter(Boolean);
      expect(declared.length + edges.length).toBe(lines.length);
      expect(new Set(declared).size).toBe(declared.length);
      for (const e of edges) expect(declared).toEqual(expect.arrayContaining([e![1], e![2]]));
    });

    it("returns an adjacency matrix with the same nodes and edges as the network", async () => {
      const network = (await (await explore("mother", "?adj_type=semantic")).json()).graph;
      const matrix = (await (await explore("mother", "?viz_type=matrix&adj_type=semantic")).json()).graph;
      expect(matrix.ids).toEqual(network.nodes.map((n: Node) => n.id));
      expect(matrix.labels).toHaveLength(matrix.ids.length);
      expect(matrix.matrix.flat().reduce((a: number, b: number) => a + b, 0)).toBe(
        new Set(network.edges.map((e: Edge) => `${e.source}>${e.target}`)).size,
      );
      expect(network.nodes[0].type).toBe("headword");
    });

    it("orders nodes by adj_type", async () => {
      const ids = async (adj: string) =>
        (await (await explore("star", `?adj_type=${adj}`)).json()).graph.nodes.map((n: Node) => n.id);
      const [temporal, linguistic, semantic] = await Promise.all(["temporal", "linguistic", "semantic"].map(ids));
      expect([...temporal].sort()).toEqual([...linguistic].sort());
      expect([...temporal].sort()).toEqual([...semantic].sort());
      expect(semantic[0]).toBe("n0");
      expect(temporal).not.toEqual(semantic);
      expect(linguistic).not.toEqual(temporal);
    });

    it("rejects bad viz_type and adj_type with 400", async () => {
      for (const q of ["?viz_type=pie", "?adj_type=alphabetical", "?viz_type="]) {
        const res = await explore("water", q);
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ error: expect.any(String) });
      }
    });

    it("rejects an over-long word with 400", async () => {
      expect((await explore("a".repeat(65))).status).toBe(400);
    });

    it("answers 404 {error} for an unknown word", async () => {
      const res = await explore("qwzxvbnm");
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "unknown word 'qwzxvbnm'" });
    });
  });

  describe("when the data cannot be loaded", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "etymology-http-"));
    afterAll(() => {
      delete process.env.ETYMOLOGY_DATA_PATH;
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("health is 502 {error}, explore is 502, the index still answers", async () => {
      const broken = path.join(dir, "broken.json.gz");
      fs.writeFileSync(broken, "this is not gzip");
      process.env.ETYMOLOGY_DATA_PATH = broken;
      const health = await t.gw.request("/v1/etymology/health");
      expect(health.status).toBe(502);
      expect(await health.json()).toEqual({ error: "etymology data could not be loaded (file unreadable or corrupt)" });
      expect((await explore("water")).status).toBe(502);
      const index = await (await t.gw.request("/v1/etymology/")).json();
      expect(index).toMatchObject({ headwords: null, status: "unavailable" });
      process.env.ETYMOLOGY_DATA_PATH = path.join(dir, "missing.json.gz");
      expect(await (await t.gw.request("/v1/etymology/health")).json()).toEqual({
        error: "etymology data could not be loaded (file missing)",
      });
    });
  });
});
