import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import { DEFAULT_DATA_PATH, etymologyDataPath, etymologyStore, loadEtymologyStore } from "./store.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "etymology-store-"));
const write = (name: string, content: Buffer | string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
};
const saved = process.env.ETYMOLOGY_DATA_PATH;
afterEach(() => {
  if (saved === undefined) delete process.env.ETYMOLOGY_DATA_PATH;
  else process.env.ETYMOLOGY_DATA_PATH = saved;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("loadEtymologyStore", () => {
  it("loads the shipped data and indexes headwords, roots, citations and ancestor forms", () => {
    const store = loadEtymologyStore(DEFAULT_DATA_PATH);
    expect(store.records).toHaveLength(25_000);
    expect(store.byWord.size).toBe(25_000);
    expect(store.records[store.byWord.get("water")!]!.headword).toBe("Water");
    // Frequency order: "you" is the most frequent headword.
    expect(store.byWord.get("you")).toBe(0);
    expect(store.byRoot.get("137")).toContain(store.byWord.get("water"));
    expect(store.citedBy.get("water")?.map((r) => store.records[r]!.word)).toContain("wetter");
    expect(store.byAncestor.get("L.|ante")?.map((r) => store.records[r]!.word)).toContain("ancient");
    expect(store.legend["AS."]).toBe("Anglo-Saxon (Old English)");
  });

  it("says the file is missing", () => {
    expect(() => loadEtymologyStore(path.join(dir, "nope.json.gz"))).toThrow(
      "etymology data could not be loaded (file missing)",
    );
  });

  it("says the file is corrupt when it is not gzip or not JSON", () => {
    expect(() => loadEtymologyStore(write("plain.json.gz", "[]"))).toThrow("file unreadable or corrupt");
    expect(() => loadEtymologyStore(write("truncated.json.gz", zlib.gzipSync('[{"word":')))).toThrow(
      "file unreadable or corrupt",
    );
  });

  it("rejects JSON that is not an array of headword records", () => {
    expect(() => loadEtymologyStore(write("object.json.gz", zlib.gzipSync("{}")))).toThrow(
      "not an array of headword records",
    );
    expect(() => loadEtymologyStore(write("empty.json.gz", zlib.gzipSync("[]")))).toThrow(
      "not an array of headword records",
    );
    expect(() => loadEtymologyStore(write("bad-record.json.gz", zlib.gzipSync('[{"word": 1}]')))).toThrow(
      "not an array of headword records",
    );
  });
});

describe("etymologyStore", () => {
  it("reads ETYMOLOGY_DATA_PATH, defaulting to the shipped file", () => {
    expect(etymologyDataPath({})).toBe(DEFAULT_DATA_PATH);
    expect(etymologyDataPath({ ETYMOLOGY_DATA_PATH: " /x/y.json.gz " })).toBe("/x/y.json.gz");
  });

  it("loads once and reuses the store", () => {
    delete process.env.ETYMOLOGY_DATA_PATH;
    expect(etymologyStore()).toBe(etymologyStore());
  });

  it("turns a failed load into a 502 GatewayError and recovers when the path is fixed", () => {
    process.env.ETYMOLOGY_DATA_PATH = write("broken.json.gz", "not gzip");
    let caught: unknown;
    try {
      etymologyStore();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect((caught as GatewayError).status).toBe(502);
    expect((caught as GatewayError).message).toMatch(/could not be loaded/);
    delete process.env.ETYMOLOGY_DATA_PATH;
    expect(etymologyStore().records.length).toBe(25_000);
  });
});
