import { describe, expect, it } from "vitest";
import { cacheDirective } from "./directive.ts";

describe("cacheDirective", () => {
  it("asks nothing without the header or without a directive the cache reads", () => {
    expect(cacheDirective(undefined)).toBeUndefined();
    expect(cacheDirective("private, must-revalidate")).toBeUndefined();
    expect(cacheDirective("max-age=soon")).toBeUndefined();
    expect(cacheDirective("max-age=-5")).toBeUndefined();
  });

  it("reads max-age as the age accepted, and stores the answer", () => {
    expect(cacheDirective("max-age=600")).toEqual({ maxAgeS: 600, store: true });
    expect(cacheDirective('Max-Age="60", private')).toEqual({ maxAgeS: 60, store: true });
    expect(cacheDirective("max-age=0")).toEqual({ maxAgeS: 0, store: true });
  });

  it("caps a max-age beyond any TTL instead of overflowing", () => {
    expect(cacheDirective("max-age=999999999999")!.maxAgeS).toBe(10 * 365 * 86_400);
  });

  it("no-cache reads nothing but stores the fresh answer; no-store keeps out of the cache altogether", () => {
    expect(cacheDirective("no-cache, max-age=600")).toEqual({ maxAgeS: 0, store: true });
    expect(cacheDirective("max-age=600, no-store")).toBeUndefined();
    expect(cacheDirective("no-store")).toBeUndefined();
  });

  it("gives a request that says nothing the alias's policy, and lets the request's own directive win", () => {
    const policy = { maxAgeS: 300, store: true };
    expect(cacheDirective(undefined, policy)).toBe(policy);
    expect(cacheDirective("private", policy)).toBe(policy);
    expect(cacheDirective("max-age=5", policy)).toEqual({ maxAgeS: 5, store: true });
    expect(cacheDirective("no-cache", policy)).toEqual({ maxAgeS: 0, store: true });
    expect(cacheDirective("no-store", policy)).toBeUndefined();
  });
});
