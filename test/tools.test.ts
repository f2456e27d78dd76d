import { describe, expect, it } from "vitest";
import { startFakeArxiv, startFakeWikipedia, type FakeSource } from "./fakes/data-sources.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/tools: list the tools, run one", () => {
  let wiki: FakeSource;
  let arxiv: FakeSource;
  const t = useGateway({
    fakes: async () => ([wiki, arxiv] = await Promise.all([startFakeWikipedia(), startFakeArxiv()])),
    env: () => ({ UPSTREAM_WIKIPEDIA_URL: wiki.url, UPSTREAM_ARXIV_URL: arxiv.url }),
    key: { minute: 1000 },
  });

  it("lists 36 tools with their JSON Schemas, without a key, at /v1/tools/ and /v1/tools", async () => {
    for (const path of ["/v1/tools/", "/v1/tools"]) {
      const res = await t.gw.request(path);
      expect(res.status, path).toBe(200);
      const body = await res.json();
      expect(body.count).toBe(36);
      expect(body.tools).toHaveLength(36);
      const arxivSearch = body.tools.find((tool: { name: string }) => tool.name === "arxiv_search");
      expect(arxivSearch).toMatchObject({ module: "arxiv", schema: { type: "object" } });
      expect(arxivSearch.schema.required).toEqual(["query"]);
    }
  });

  it("runs arxiv_search and wikipedia_search with a key", async () => {
    const a = await t.post("/v1/tools/arxiv_search", { query: "attention", limit: 2 });
    expect(a.status).toBe(200);
    const ab = await a.json();
    expect(ab).toMatchObject({ tool: "arxiv_search", result: { source: "arxiv", count: 2 } });
    expect(ab.result.results[0].title).toBe("Attention Again (extended)");
    expect(a.headers.get("content-security-policy")).toContain("sandbox");

    const w = await t.post("/v1/tools/wikipedia_search", { query: "ada" });
    expect(w.status).toBe(200);
    expect((await w.json()).result.results[0]).toMatchObject({ id: "Ada Lovelace" });

    const s = await t.post("/v1/tools/wikipedia_get_summary", { title: "Ada Lovelace" });
    expect(s.status).toBe(200);
  });

  it("needs a key to run a tool", async () => {
    expect((await t.post("/v1/tools/arxiv_search", { query: "attention" }, false)).status).toBe(401);
  });

  it("answers 400 naming the field for bad arguments, and for NULs", async () => {
    const missing = await t.post("/v1/tools/arxiv_search", { limit: 2 });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatch(/query/);
    const wrong = await t.post("/v1/tools/arxiv_search", { query: "x", limit: 0 });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toMatch(/limit/);
    const nul = await t.post("/v1/tools/arxiv_search", { query: "a\u0000b" });
    expect(nul.status).toBe(400);
    expect((await nul.json()).error).toMatch(/query/);
    expect((await t.post("/v1/tools/arxiv_search", [1, 2])).status).toBe(400);
  });

  it("answers 404 naming an unknown tool", async () => {
    const res = await t.post("/v1/tools/no_such_tool", {});
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/no_such_tool/);
  });
});
