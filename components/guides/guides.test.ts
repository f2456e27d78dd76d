import { describe, expect, it } from "vitest";
import { AREAS_TOPIC, findGuide, guideIndex, headingId, linkTarget, parseGuide, readCatalogue, TOPICS } from "./guides";

const catalogue = readCatalogue(process.cwd());

describe("the guides' catalogue", () => {
  it("holds every top-level guide and the decision records, each under its own slug", () => {
    for (const t of TOPICS) for (const [slug, file] of t.guides) expect(catalogue.files.get(slug)).toBe(file);
    expect(catalogue.files.get("adr")).toBe("docs/adr/README.md");
    expect(catalogue.files.get("adr-0001-one-request-pipeline")).toBe("docs/adr/0001-one-request-pipeline.md");
    expect(catalogue.files.get("areas-aac")).toBe("docs/areas/aac.md");
    // Nothing but the catalogue's names: a path from an address is never read.
    for (const slug of ["../package.json", "..%2Fpackage.json", "docs/api.md", "api.md", ".env", "adr/README"])
      expect(findGuide(slug), slug).toBeNull();
  });

  it("lists each guide by topic with its first heading and first sentence", () => {
    const index = guideIndex();
    expect(index.map((t) => t.topic)).toContain("Start here");
    const start = index.find((t) => t.topic === "Start here")!.guides;
    expect(start.find((g) => g.slug === "getting-started")).toEqual({
      slug: "getting-started",
      title: "Getting started",
      summary: "From a fresh checkout to a keyed call, and how the tests run.",
    });
    for (const t of index.filter((t) => t.topic !== AREAS_TOPIC))
      for (const g of t.guides) expect(g.summary.length, g.slug).toBeGreaterThan(10);
    expect(index.find((t) => t.topic === AREAS_TOPIC)!.guides).toContainEqual({
      slug: "areas-aac",
      title: "AAC symbols",
      summary: "",
    });
  });
});

describe("links between guides", () => {
  it("become links between pages, with their fragment; other files are shown unlinked", () => {
    const at = (href: string, from = "docs/api.md") => linkTarget(href, from, catalogue);
    expect(at("getting-started.md")).toEqual({ kind: "page", href: "/docs/guides/getting-started" });
    expect(at("portal.md#pages")).toEqual({ kind: "page", href: "/docs/guides/portal#pages" });
    expect(at("adr/0001-one-request-pipeline.md")).toEqual({
      kind: "page",
      href: "/docs/guides/adr-0001-one-request-pipeline",
    });
    expect(at("../portal.md#key-approval", "docs/adr/0022-key-approval-policy.md")).toEqual({
      kind: "page",
      href: "/docs/guides/portal#key-approval",
    });
    expect(at("0009-error-answers-by-surface.md", "docs/adr/README.md")).toEqual({
      kind: "page",
      href: "/docs/guides/adr-0009-error-answers-by-surface",
    });
    expect(at("docs/llm.md", "README.md")).toEqual({ kind: "page", href: "/docs/guides/llm" });
    expect(at("../README.md#first-keyed-call")).toEqual({ kind: "page", href: "/docs/guides/readme#first-keyed-call" });
    expect(at("#keys")).toEqual({ kind: "anchor", href: "#keys" });
    expect(at("https://openapi-ts.dev/openapi-fetch/")).toEqual({
      kind: "external",
      href: "https://openapi-ts.dev/openapi-fetch/",
    });
    expect(at("../lib/api/trove/routes.ts#L166")).toEqual({ kind: "none" });
    expect(at("javascript:alert(1)")).toEqual({ kind: "none" });
    expect(at("../../etc/passwd")).toEqual({ kind: "none" });
  });

  it("name headings as GitHub does, so the files' own fragments find them", () => {
    const seen = new Map<string, number>();
    expect(headingId("Keys: the operator CLI", seen)).toBe("keys-the-operator-cli");
    expect(headingId("When something fails", seen)).toBe("when-something-fails");
    expect(headingId("`/v1/key` answers", seen)).toBe("v1key-answers");
    expect(headingId("When something fails", seen)).toBe("when-something-fails-1");
  });

  it("take the first sentence of the first paragraph as the summary, and keep raw HTML as text", () => {
    const g = parseGuide(
      "x",
      "docs/x.md",
      "# Title\n\nOne `thing`, e.g. this. Two [link](a.md).\n\n<script>x</script>\n",
    );
    expect(g.title).toBe("Title");
    expect(g.summary).toBe("One thing, e.g. this.");
    expect(g.tokens.some((t) => t.type === "html")).toBe(true);
  });
});
