import { describe, expect, it } from "vitest";
import { captureRecord, captureRows, snapshotView } from "./normalise.ts";

describe("archive", () => {
  it("reads CDX's JSON rows by the header row's names, and no rows (or no table) as none", () => {
    const rows = [
      ["timestamp", "original", "mimetype", "statuscode", "length"],
      ["20200101000000", "http://example.com/", "text/html", "200", "1256"],
    ];
    const [capture] = captureRows(rows);
    expect(capture).toEqual({
      timestamp: "20200101000000",
      original: "http://example.com/",
      mimetype: "text/html",
      statuscode: "200",
      length: "1256",
    });
    expect(captureRows([])).toEqual([]);
    expect(captureRows({ error: "x" })).toEqual([]);
    expect(captureRecord(capture!)).toMatchObject({
      id: "20200101000000/http://example.com/",
      title: "http://example.com/ at 20200101000000",
      url: "https://web.archive.org/web/20200101000000/http://example.com/",
      summary: "text/html 200",
      published: "20200101000000",
      source: "archive",
    });
  });

  it("links a snapshot on the Wayback Machine when the availability API names no URL", () => {
    expect(
      snapshotView("http://example.com/", { timestamp: "20200101000000", available: true }, "<html></html>"),
    ).toEqual({
      url: "http://example.com/",
      timestamp: "20200101000000",
      snapshot_url: "https://web.archive.org/web/20200101000000/http://example.com/",
      status: null,
      content: "<html></html>",
    });
  });
});
