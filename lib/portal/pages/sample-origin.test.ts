import { describe, expect, it } from "vitest";
import { sampleOrigin } from "./sample-origin.ts";

const FALLBACK = "http://localhost:3000";
const from = (headers: Record<string, string>) => new Headers(headers);

describe("sampleOrigin", () => {
  it("prefers PUBLIC_BASE_URL, without a trailing slash", () => {
    expect(sampleOrigin("https://api.example.org/", from({ host: "evil.test" }), FALLBACK)).toBe(
      "https://api.example.org",
    );
  });

  it("otherwise uses the request's Host, https only when a proxy says so", () => {
    expect(sampleOrigin(undefined, from({ host: "127.0.0.1:4123" }), FALLBACK)).toBe("http://127.0.0.1:4123");
    expect(sampleOrigin(undefined, from({ host: "portal.example.org", "x-forwarded-proto": "https" }), FALLBACK)).toBe(
      "https://portal.example.org",
    );
    expect(sampleOrigin(undefined, from({ host: "[::1]:3000", "x-forwarded-proto": "https, http" }), FALLBACK)).toBe(
      "https://[::1]:3000",
    );
    expect(sampleOrigin(undefined, from({ host: "a.example", "x-forwarded-proto": "gopher" }), FALLBACK)).toBe(
      "http://a.example",
    );
  });

  it("falls back when there is no Host or it is not a plain host[:port]", () => {
    expect(sampleOrigin(undefined, from({}), FALLBACK)).toBe(FALLBACK);
    for (const host of ["a.example/path", "user@a.example", "a.example?x=1", "a b", "a.example#x"])
      expect(sampleOrigin(undefined, from({ host }), FALLBACK), host).toBe(FALLBACK);
  });
});
