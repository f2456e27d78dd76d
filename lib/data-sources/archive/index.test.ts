import { generateSync } from "json-schema-faker";
import { describe, expect, it } from "vitest";
import { UpstreamClient } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";
import { CAPTURE_TARGET, captures, HTTP_URL, snapshot } from "./index.ts";

// The tools publish HTTP_URL and CAPTURE_TARGET as JSON Schema patterns; whatever matches them must
// pass the adapter's own checks (the URL parser, and the client's dot-segment guard on the Wayback
// path the URL is put in). Strings are made from the patterns as a JSON Schema reader would.

const made = (pattern: RegExp, count: number) =>
  Array.from(
    { length: count },
    (_, seed) => generateSync({ type: "string", pattern: pattern.source }, { seed }) as string,
  );

/** A source context whose client answers as the archive would, after building each URL as the real client does. */
function archiveContext(): SourceContext {
  const real = new UpstreamClient({ name: "archive", origin: "https://archive.org" });
  const client = {
    get: async (req: Parameters<UpstreamClient["get"]>[0]) => {
      real.url(req); // throws the 400 a dot segment gets
      if (req.path === "/wayback/available")
        return { archived_snapshots: { closest: { available: true, timestamp: "20200101000000" } } };
      return req.path.startsWith("/cdx/") ? [] : "<html></html>";
    },
  };
  return { client } as unknown as SourceContext;
}

describe("the archive's published URL patterns", () => {
  it("match only URLs snapshot() takes, dots in a query or fragment included", async () => {
    const urls = [...made(HTTP_URL, 150), "http://a.com/?x=/../", "https://a.com/#.", "http://1.2.3.4:65535/p"];
    for (const url of urls) {
      expect(HTTP_URL.test(url), url).toBe(true);
      await expect(snapshot(archiveContext(), url), url).resolves.toMatchObject({ timestamp: "20200101000000" });
    }
  });

  it("match only targets captures() takes: a bare host or an http(s) URL", async () => {
    for (const target of [...made(CAPTURE_TARGET, 150), "example.com", "example.com/a/b"]) {
      expect(CAPTURE_TARGET.test(target), target).toBe(true);
      await expect(captures(archiveContext(), target, 1), target).resolves.toEqual([]);
    }
  });

  it("leave out what the URL parser refuses, even where it looks like a URL", () => {
    for (const url of ["http://1.2.3.4.5/", "http://a.0x/", "http://xn--a.com/", "http://a.com:65536/", "ftp://a.com/"])
      expect(HTTP_URL.test(url), url).toBe(false);
  });
});
