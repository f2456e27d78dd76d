import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { effectiveLimits, enforcedTerms, keyAllowsArea, withEnforcedTerms, type KeyRecord } from "./record.ts";

const key = (scopes: string[]) => ({ scopes }) as KeyRecord;

describe("keyAllowsArea", () => {
  it("treats operator scopes as powers, not areas: a key with only them reaches every area", () => {
    expect(keyAllowsArea(key([]), "llm")).toBe(true);
    expect(keyAllowsArea(key(["ollama:admin"]), "llm")).toBe(true);
    expect(keyAllowsArea(key(["data", "ollama:admin"]), "llm")).toBe(false);
    expect(keyAllowsArea(key(["data", "ollama:admin"]), "data")).toBe(true);
    expect(keyAllowsArea(key(["data"]), "account")).toBe(true);
  });
});

describe("enforcedTerms", () => {
  // The shipped defaults, as an operator who sets nothing gets them.
  const policy = loadConfig({});
  const none = { day: null, minute: null, concurrency: null };

  it("holds a console key to the console policy: 1,000 a day, 60 a minute, 4 at once, six areas", () => {
    expect(enforcedTerms({ kind: "console", scopes: [], limits: none }, policy)).toEqual({
      limits: {
        day: { value: 1000, source: "console" },
        minute: { value: 60, source: "console" },
        concurrency: { value: 4, source: "console" },
      },
      scopes: { value: ["aac", "datavis", "generate", "llm", "orchestrate", "trove"], source: "console" },
    });
  });

  it("holds a client key to the service defaults and its own grant, every area when it names none", () => {
    expect(enforcedTerms({ kind: "client", scopes: [], limits: none }, policy)).toEqual({
      limits: {
        day: { value: 10_000, source: "default" },
        minute: { value: 100, source: "default" },
        concurrency: { value: 10, source: "default" },
      },
      scopes: { value: [], source: "key" },
    });
  });

  it("takes a key's own limits and scopes first, of either kind", () => {
    const own = { day: 5, minute: null, concurrency: 2 };
    for (const kind of ["client", "console"]) {
      const terms = enforcedTerms({ kind, scopes: ["data"], limits: own }, policy);
      expect(terms.limits.day).toEqual({ value: 5, source: "key" });
      expect(terms.limits.concurrency).toEqual({ value: 2, source: "key" });
      expect(terms.scopes).toEqual({ value: ["data"], source: "key" });
    }
  });

  it("is what the key cache enforces: withEnforcedTerms fills a record's limits and scopes from it", () => {
    const record = { kind: "console", scopes: [], overrides: none } as unknown as KeyRecord;
    const cached = withEnforcedTerms(record, policy);
    expect(effectiveLimits(cached, policy.limits)).toEqual({ day: 1000, minute: 60, concurrency: 4 });
    expect(keyAllowsArea(cached, "llm")).toBe(true);
    expect(keyAllowsArea(cached, "data")).toBe(false);
    const client = withEnforcedTerms({ ...record, kind: "client" }, policy);
    expect(effectiveLimits(client, { day: 1, minute: 1, concurrency: 1 })).toEqual({
      day: 10_000,
      minute: 100,
      concurrency: 10,
    });
    expect(keyAllowsArea(client, "data")).toBe(true);
  });
});
