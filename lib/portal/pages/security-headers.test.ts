import { describe, expect, it } from "vitest";
import { portalSecurityHeaders } from "./security-headers.ts";

describe("portal security headers", () => {
  const production = { production: true, publicBaseUrl: undefined };

  it("forbids framing and foreign scripts, with nosniff and a referrer policy", () => {
    const h = portalSecurityHeaders("/keys", production);
    expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(h["content-security-policy"]).toContain("script-src 'self' 'unsafe-inline';");
    expect(h["content-security-policy"]).toContain("connect-src 'self'");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(h["strict-transport-security"]).toBeUndefined();
  });

  it("allows eval only where Vega draws charts (and in development)", () => {
    expect(portalSecurityHeaders("/console/datavis", production)["content-security-policy"]).toContain("'unsafe-eval'");
    expect(portalSecurityHeaders("/console/chat", production)["content-security-policy"]).not.toContain(
      "'unsafe-eval'",
    );
    expect(portalSecurityHeaders("/console/datavisX", production)["content-security-policy"]).not.toContain(
      "'unsafe-eval'",
    );
    expect(
      portalSecurityHeaders("/", { production: false, publicBaseUrl: undefined })["content-security-policy"],
    ).toContain("'unsafe-eval'");
  });

  it("sends HSTS only when the public address is HTTPS", () => {
    expect(
      portalSecurityHeaders("/", { production: true, publicBaseUrl: "https://api.example.org" })[
        "strict-transport-security"
      ],
    ).toMatch(/max-age=\d+/);
    expect(
      portalSecurityHeaders("/", { production: true, publicBaseUrl: "http://127.0.0.1:3000" })[
        "strict-transport-security"
      ],
    ).toBeUndefined();
  });
});
