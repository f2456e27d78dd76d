import { describe, expect, it } from "vitest";
import { formatCost, formatMs, ResearchResult, safeHref } from "./research-result";

describe("research results", () => {
  it("links only http and https sources", () => {
    expect(safeHref("https://arxiv.org/abs/1706.03762")).toBe("https://arxiv.org/abs/1706.03762");
    expect(safeHref("http://example.org/a b")).toBe("http://example.org/a%20b");
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("data:text/html,<script>alert(1)</script>")).toBeNull();
    expect(safeHref("/relative/path")).toBeNull();
    expect(safeHref(undefined)).toBeNull();
  });

  it("formats costs and durations", () => {
    expect(formatCost(0.00123)).toBe("$0.0012");
    expect(formatCost(12.5)).toBe("$12.50");
    expect(formatCost(undefined)).toBe("not estimated");
    expect([formatMs(850), formatMs(12_345), formatMs(undefined)]).toEqual(["850 ms", "12.3 s", "—"]);
  });

  it("reads a sparse result with its lists empty", () => {
    const r = ResearchResult.parse({ kind: "dream-cascade", executive_summary: "Short." });
    expect(r.kind === "dream-cascade" && [r.agents, r.syntheses, r.sources, r.usage.total_tokens]).toEqual([
      [],
      [],
      [],
      0,
    ]);
    expect(ResearchResult.safeParse({ kind: "other" }).success).toBe(false);
  });
});
