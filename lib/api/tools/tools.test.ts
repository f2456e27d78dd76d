import { describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { TOOLS, toolByName } from "./tools.ts";

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
});
