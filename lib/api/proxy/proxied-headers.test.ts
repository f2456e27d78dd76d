import { describe, expect, it } from "vitest";
import { proxiedHeaders } from "./proxied-headers.ts";

describe("proxiedHeaders", () => {
  it("passes the allowlisted upstream headers, sandboxes the answer and counts the bytes passed on", () => {
    const headers = proxiedHeaders(
      {
        "Content-Type": "text/html",
        "Content-Length": "120",
        ETag: '"v1"',
        "Set-Cookie": "session=1",
        "Service-Worker-Allowed": "/",
      },
      { "X-RateLimit-Remaining": "9" },
      "https://example.com/final",
      480,
    );
    expect(headers).toEqual({
      "content-type": "text/html",
      etag: '"v1"',
      "content-security-policy": "sandbox; default-src 'none'",
      "x-content-type-options": "nosniff",
      "cross-origin-resource-policy": "same-origin",
      "X-RateLimit-Remaining": "9",
      "Content-Length": "480",
      "x-proxy-final-url": "https://example.com/final",
    });
  });

  it("never lets an upstream header stand in for the untrusted-content headers", () => {
    const headers = proxiedHeaders({ "content-security-policy": "default-src *" }, {}, "https://example.com/", 0);
    expect(headers["content-security-policy"]).toBe("sandbox; default-src 'none'");
  });
});
