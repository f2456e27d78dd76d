import { describe, expect, it } from "vitest";
import { traceLink, traceUrlTemplate } from "./trace-link.ts";

const TRACE = "0af7651916cd43dd8448eb211c80319c";

describe("TRACE_URL_TEMPLATE", () => {
  it("is unset when empty, and kept as given when it is an http(s) URL holding {traceId}", () => {
    expect(traceUrlTemplate(undefined)).toBeUndefined();
    expect(traceUrlTemplate("  ")).toBeUndefined();
    expect(traceUrlTemplate("http://localhost:16686/trace/{traceId}")).toBe("http://localhost:16686/trace/{traceId}");
    expect(traceUrlTemplate("https://grafana.example/explore?traceId={traceId}&x=1")).toBe(
      "https://grafana.example/explore?traceId={traceId}&x=1",
    );
  });

  it("is refused at start without {traceId}, or when it is not an http(s) URL, naming the variable", () => {
    for (const bad of [
      "http://localhost:16686/trace/",
      "javascript:alert({traceId})",
      "localhost/{traceId}",
      "/t/{traceId}",
    ])
      expect(() => traceUrlTemplate(bad)).toThrow(/TRACE_URL_TEMPLATE must be an http\(s\) URL containing \{traceId\}/);
  });

  it("links a trace id, and nothing that is not one", () => {
    const template = "http://localhost:16686/trace/{traceId}";
    expect(traceLink(template, TRACE)).toBe(`http://localhost:16686/trace/${TRACE}`);
    expect(traceLink(undefined, TRACE)).toBeUndefined();
    expect(traceLink(template, "../admin")).toBeUndefined();
  });
});
