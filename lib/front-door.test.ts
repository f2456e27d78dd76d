import { describe, expect, it } from "vitest";
import { isGatewayRequest } from "./front-door.ts";
import { prefersHtml } from "./prefers-html.ts";

describe("isGatewayRequest", () => {
  it("sends API and status paths to the gateway", () => {
    for (const url of ["/v1/key", "/v1", "/v1/data/arxiv/search?q=x", "/health", "/openapi.json", "/metrics"]) {
      expect(isGatewayRequest(url, "text/html")).toBe(true);
    }
  });

  it("sends the clinical content service to the gateway, and the portal's own /api paths to Next", () => {
    for (const url of ["/api/conditions", "/api/conditions/down-syndrome", "/api/search?q=aphasia", "/api/stats"]) {
      expect(isGatewayRequest(url, "text/html")).toBe(true);
    }
    for (const url of [
      "/api/auth/session",
      "/api/auth/callback/github",
      "/api/conditionsx",
      "/api/statsx",
      "/api",
      "/clinical/down-syndrome",
    ]) {
      expect(isGatewayRequest(url, "*/*")).toBe(false);
    }
  });

  it("sends portal pages to Next", () => {
    expect(isGatewayRequest("/docs", "*/*")).toBe(false);
    expect(isGatewayRequest("/v1x", "*/*")).toBe(false);
    expect(isGatewayRequest("/_next/static/x.js", "*/*")).toBe(false);
  });

  it("serves / as JSON to programs and as the portal to browsers", () => {
    expect(isGatewayRequest("/", undefined)).toBe(true);
    expect(isGatewayRequest("/", "*/*")).toBe(true);
    expect(isGatewayRequest("/", "application/json")).toBe(true);
    expect(isGatewayRequest("/", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")).toBe(false);
    expect(isGatewayRequest("/?x=1", "text/html")).toBe(false);
  });
});

describe("prefersHtml", () => {
  it("weighs q values", () => {
    expect(prefersHtml("application/json, text/html;q=0.5")).toBe(false);
    expect(prefersHtml("text/html;q=0")).toBe(false);
    expect(prefersHtml("text/html, application/json")).toBe(true);
  });
});
