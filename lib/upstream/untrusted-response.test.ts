import { describe, expect, it } from "vitest";
import { keptPageHeaders, keptUpstreamHeaders, refuseServiceWorkerScript } from "./untrusted-response.ts";

describe("untrusted upstream responses", () => {
  it("keeps only the headers needed to read and cache a body", () => {
    const kept = keptUpstreamHeaders({
      "Content-Type": "text/html",
      "content-length": "12",
      etag: '"x"',
      "service-worker-allowed": "/",
      "content-security-policy": "script-src *",
      "access-control-allow-origin": "*",
      link: "</sw.js>; rel=serviceworker",
      refresh: "0; url=https://evil.example/",
      "x-custom": "kept?",
    });
    expect(kept).toEqual({ "content-type": "text/html", "content-length": "12", etag: '"x"' });
  });

  it("gives a screenshot's page its CORS answers too, but nothing a browser would obey", () => {
    const kept = keptPageHeaders({
      "content-type": "font/woff2",
      "access-control-allow-origin": "*",
      "service-worker-allowed": "/",
      refresh: "0",
    });
    expect(kept).toEqual({ "content-type": "font/woff2", "access-control-allow-origin": "*" });
  });

  it("refuses a service worker script fetch and nothing else", () => {
    expect(() => refuseServiceWorkerScript("script")).toThrow(/service worker/);
    expect(() => refuseServiceWorkerScript(" Script ")).toThrow(/service worker/);
    expect(() => refuseServiceWorkerScript(undefined)).not.toThrow();
    expect(() => refuseServiceWorkerScript("")).not.toThrow();
  });
});
