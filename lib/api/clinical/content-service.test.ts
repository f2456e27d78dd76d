import { describe, expect, it } from "vitest";
import { findCondition, listConditions } from "./conditions.ts";
import {
  conditionHtml,
  conditionPageUrl,
  contentRecord,
  contentServiceErrors,
  contentStats,
  matchConditionNames,
} from "./content-service.ts";

describe("content service records", () => {
  it("point at the portal page of the condition", () => {
    const down = findCondition("down-syndrome")!;
    expect(contentRecord(down)).toEqual({
      slug: "down-syndrome",
      name: "Down syndrome",
      has_html: true,
      url: "/clinical/down-syndrome",
    });
    expect(conditionPageUrl("x")).toBe("/clinical/x");
  });

  it("render each condition's HTML once", () => {
    const down = findCondition("down-syndrome")!;
    expect(conditionHtml(down)).toBe(conditionHtml(down));
    expect(conditionHtml(down)).toContain("<h1>Down syndrome</h1>");
  });

  it("count conditions with and without a page", () => {
    const all = listConditions();
    expect(contentStats()).toEqual({ total_conditions: all.length, html_ready: all.length, markdown_only: 0 });
    const empty = { ...all[0]!, slug: "empty-test", markdown: "" };
    expect(contentStats([all[0]!, empty])).toEqual({ total_conditions: 2, html_ready: 1, markdown_only: 1 });
  });
});

describe("matchConditionNames", () => {
  const all = listConditions();
  it("matches names by word prefixes, in any order and case", () => {
    expect(matchConditionNames(all, "down").map((c) => c.slug)).toEqual(["down-syndrome"]);
    expect(matchConditionNames(all, "SYNDROME RETT").map((c) => c.slug)).toEqual(["rett-syndrome"]);
    expect(matchConditionNames(all, "apraxia").every((c) => /apraxia/i.test(c.name))).toBe(true);
  });
  it("does not match content, only names", () => {
    expect(matchConditionNames(all, "hypotonia")).toEqual([]);
    expect(matchConditionNames(all, "   ")).toEqual([]);
  });
});

describe("contentServiceErrors", () => {
  it("wraps what a caller caused in the service's envelope", () => {
    expect(contentServiceErrors(404, { error: "unknown condition 'x'" })).toEqual({
      success: false,
      error: "unknown condition 'x'",
    });
    expect(contentServiceErrors(400, { error: "q: required" })).toEqual({ success: false, error: "q: required" });
    expect(contentServiceErrors(429, { error: { code: "rate_limit_exceeded", message: "slow down" } })).toEqual({
      success: false,
      error: "slow down",
    });
  });
  it("leaves a server failure as the gateway wrote it", () => {
    expect(contentServiceErrors(500, { error: "internal server error (request id r)" })).toBeNull();
    expect(contentServiceErrors(503, { error: "the database is unreachable; try again shortly" })).toBeNull();
    expect(contentServiceErrors(404, null)).toBeNull();
  });
});
