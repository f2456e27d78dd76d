import { asSchema } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { inputJsonSchema } from "./tool.ts";
import { TOOLS, toolByName } from "./tools.ts";

type Node = Record<string, unknown>;

/** Every `pattern` in a JSON Schema, with where it is. */
function patterns(node: unknown, at = ""): Array<[string, string]> {
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node as Node).flatMap(([key, value]) =>
    key === "pattern" && typeof value === "string"
      ? [[at, value] as [string, string]]
      : patterns(value, `${at}/${key}`),
  );
}

// The two rules that ask for a character anywhere, on purpose: not blank, and a Wikipedia title.
const CONTAINS = new Set(["\\S", "[^\\s.]"]);

describe("tool definitions", () => {
  it("has 36 tools with unique names of the form <module>_…, sorted by name", () => {
    expect(TOOLS).toHaveLength(36);
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(36);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    for (const t of TOOLS) {
      expect(t.name.startsWith(`${t.module}_`), t.name).toBe(true);
      expect(t.description.length, t.name).toBeGreaterThan(0);
    }
    const perModule = Object.fromEntries(
      [...new Set(TOOLS.map((t) => t.module))].map((m) => [m, TOOLS.filter((t) => t.module === m).length]),
    );
    expect(perModule).toEqual({
      archive: 3,
      arxiv: 2,
      census: 2,
      finance: 3,
      github: 4,
      nasa: 4,
      news: 3,
      openlibrary: 3,
      semantic_scholar: 3,
      weather: 3,
      wikipedia: 3,
      youtube: 3,
    });
  });

  it("gives every tool a JSON Schema object of type object", () => {
    for (const t of TOOLS) {
      const schema = z.toJSONSchema(t.input, { io: "input" }) as Record<string, unknown>;
      expect(schema.type, t.name).toBe("object");
      expect(typeof schema.properties, t.name).toBe("object");
    }
  });

  it("finds tools by name and validates their arguments", () => {
    expect(toolByName("arxiv_search")?.module).toBe("arxiv");
    expect(toolByName("nope")).toBeUndefined();
    expect(toolByName("arxiv_search")!.input.safeParse({ query: "x" }).success).toBe(true);
    expect(toolByName("arxiv_search")!.input.safeParse({ query: 3 }).success).toBe(false);
  });

  it("shows the agents the rules GET /v1/tools/ and MCP publish: one zod input, converted by the AI SDK", async () => {
    for (const t of TOOLS) {
      const published = inputJsonSchema(t);
      const agents = (await asSchema(t.input).jsonSchema) as Node;
      for (const key of ["properties", "required", "if", "then"])
        expect(agents[key], `${t.name} ${key}`).toEqual(published[key]);
    }
  });

  it("publishes patterns any JSON Schema reader takes: ECMA-262 with or without u, no lookaround, whole value", () => {
    const all = TOOLS.flatMap((t) => patterns(inputJsonSchema(t), t.name));
    expect(all.length).toBeGreaterThan(30);
    for (const [at, pattern] of all) {
      expect(() => new RegExp(pattern), at).not.toThrow();
      expect(() => new RegExp(pattern, "u"), at).not.toThrow();
      expect(pattern, at).not.toMatch(/\(\?<?[=!]/);
      if (!CONTAINS.has(pattern)) expect(pattern, at).toMatch(/^\^.*\$$/);
    }
  });

  it("refuses by schema, naming the field, what the sources would refuse", () => {
    const refusal = (name: string, args: Node) => {
      const parsed = toolByName(name)!.input.safeParse(args);
      return parsed.success ? undefined : parsed.error.issues.map((i) => i.path.join(".")).join(",");
    };
    expect(refusal("arxiv_get_paper", { paper_id: "neural networks" })).toBe("paper_id");
    expect(refusal("arxiv_get_paper", { paper_id: "hep-th/9901001v2" })).toBeUndefined();
    expect(refusal("census_get_population", { geography: "tract" })).toBe("state");
    expect(refusal("census_get_population", { geography: "tract", state: "06" })).toBeUndefined();
    expect(refusal("census_get_population", {})).toBeUndefined();
    expect(refusal("openlibrary_get_by_isbn", { isbn: "978-0-261-10238-4" })).toBe("isbn"); // check digit off by one
    expect(refusal("openlibrary_get_by_isbn", { isbn: "0-306-40615-2" })).toBeUndefined();
    expect(refusal("github_get_repository", { owner: "..", repo: "x" })).toBe("owner");
    expect(refusal("github_get_repository", { owner: "...", repo: ".github" })).toBeUndefined();
    expect(refusal("wikipedia_get_summary", { title: " . " })).toBe("title");
    expect(refusal("weather_get_current", { location: "   " })).toBe("location");
    expect(refusal("nasa_get_apod", { date: "2023-02-30" })).toBe("date");
    expect(refusal("archive_get_snapshot", { url: "ftp://example.com/" })).toBe("url");
    expect(refusal("archive_get_snapshot", { url: "http://1.2.3.4.5/" })).toBe("url");
    expect(refusal("youtube_get_channel", { channel_id: "UC123" })).toBe("channel_id");
  });
});
