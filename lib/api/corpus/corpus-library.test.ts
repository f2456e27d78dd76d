import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CorpusLibrary, type IndexEvent } from "./corpus-library.ts";
import { searchCorpus } from "./search.ts";
import { CORPUS_NAMES, type CorpusName, type CorpusSource } from "./sources.ts";

let dir: string;
let reads: number;
let sources: Record<CorpusName, CorpusSource>;

function tinySource(name: CorpusName): CorpusSource {
  const file = path.join(dir, `${name}.txt`);
  return {
    name,
    description: name,
    inputFiles: () => [file],
    readDocuments: () => {
      reads++;
      return [
        {
          id: name,
          title: name,
          author: null,
          year: 1900,
          register: "r",
          genre: "g",
          text: fs.readFileSync(file, "utf8"),
        },
      ];
    },
  };
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "corpus-library-"));
  reads = 0;
  for (const name of CORPUS_NAMES)
    fs.writeFileSync(path.join(dir, `${name}.txt`), "the quick brown fox jumps over the lazy dog");
  sources = Object.fromEntries(CORPUS_NAMES.map((n) => [n, tinySource(n)])) as Record<CorpusName, CorpusSource>;
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const library = (events: IndexEvent[] = []) =>
  new CorpusLibrary(path.join(dir, "data"), (e) => events.push(e), sources);
const search = (index: Parameters<typeof searchCorpus>[0]) => searchCorpus(index, "the", { context: 2, limit: 10 });

describe("CorpusLibrary", () => {
  it("builds an index once, writes it under corpus-index/, and a second library loads it without rebuilding", async () => {
    const events: IndexEvent[] = [];
    const first = await library(events).index("coca");
    const file = library().indexFile("coca");
    expect(path.dirname(file)).toBe(path.join(dir, "data", "corpus-index"));
    expect(path.basename(file)).toMatch(/^coca-[0-9a-f]{16}\.bin$/);
    const mtime = fs.statSync(file).mtimeMs;

    const second = await library(events).index("coca");
    expect(events.map((e) => e.action)).toEqual(["built", "loaded"]);
    expect(reads).toBe(1);
    expect(fs.statSync(file).mtimeMs).toBe(mtime);
    expect(search(second)).toEqual(search(first));
  });

  it("shares one build between concurrent first requests", async () => {
    const lib = library();
    const [a, b, c] = await Promise.all([lib.index("coca"), lib.index("coca"), lib.index("coca")]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(reads).toBe(1);
  });

  it("lets other work run while it builds a large corpus", async () => {
    const file = path.join(dir, "coca.txt");
    sources.coca = {
      ...sources.coca,
      readDocuments: () =>
        Array.from({ length: 40 }, (_, i) => ({
          id: `d${i}`,
          title: `d${i}`,
          author: null,
          year: 1900,
          register: "r",
          genre: "g",
          text: fs.readFileSync(file, "utf8"),
        })),
    };
    let otherWorkRan = false;
    let ranBeforeBuilt: boolean | undefined;
    const pending = new CorpusLibrary(path.join(dir, "data"), () => (ranBeforeBuilt = otherWorkRan), sources).index(
      "coca",
    );
    setImmediate(() => (otherWorkRan = true));
    expect((await pending).docs).toHaveLength(40);
    expect(ranBeforeBuilt).toBe(true);
  });

  it("rebuilds when an input changes, and removes the stale file", async () => {
    await library().index("early_modern");
    const old = library().indexFile("early_modern");
    fs.writeFileSync(path.join(dir, "early_modern.txt"), "thou art more lovely and more temperate");
    const index = await library().index("early_modern");
    expect(reads).toBe(2);
    expect(library().indexFile("early_modern")).not.toBe(old);
    expect(fs.existsSync(old)).toBe(false);
    expect(searchCorpus(index, "lovely", { context: 1, limit: 1 }).results[0]).toMatchObject({
      left: "more",
      word: "lovely",
      right: "and",
    });
  });

  it("rebuilds over a damaged index file instead of trusting it", async () => {
    await library().index("coca");
    fs.writeFileSync(library().indexFile("coca"), "garbage");
    const events: IndexEvent[] = [];
    const index = await library(events).index("coca");
    expect(events.map((e) => e.action)).toEqual(["built"]);
    expect(search(index).total).toBe(2);
  });

  it("reports a corpus's size from the stats written beside its index, without opening the index", async () => {
    await library().index("old_english");
    const events: IndexEvent[] = [];
    expect(await library(events).stats("old_english")).toEqual({ tokens: 9, documents: 1, vocabulary: 8 });
    expect(events).toEqual([]);
  });

  it("reports a source's known size without building its index, and the index's own counts once it is open", async () => {
    sources.middle_english = { ...sources.middle_english, knownSize: () => ({ tokens: 7, documents: 3 }) };
    const events: IndexEvent[] = [];
    const lib = library(events);
    expect(await lib.stats("middle_english")).toEqual({ tokens: 7, documents: 3 });
    expect(events).toEqual([]);
    expect(reads).toBe(0);
    await lib.index("middle_english");
    expect(await lib.stats("middle_english")).toMatchObject({ tokens: 9, documents: 1 });
  });

  it("prepares an index in the background, shared with the request that then asks for it, and swallows a failure", async () => {
    const events: IndexEvent[] = [];
    const lib = library(events);
    lib.prepare("coca");
    const index = await lib.index("coca");
    expect(events.map((e) => e.action)).toEqual(["built"]);
    expect(reads).toBe(1);
    expect(search(index).total).toBe(2);
    fs.rmSync(path.join(dir, "old_english.txt"));
    lib.prepare("old_english");
    await expect(lib.index("old_english")).rejects.toThrow();
  });

  it("still serves a built index when the data directory cannot be written", async () => {
    fs.writeFileSync(path.join(dir, "data"), "a file where the directory should be");
    const events: IndexEvent[] = [];
    const index = await library(events).index("coca");
    expect(search(index).total).toBe(2);
    expect(events).toEqual([expect.objectContaining({ action: "built", error: expect.any(String) })]);
  });

  it("forgets a failed build so the next request tries again", async () => {
    fs.rmSync(path.join(dir, "coca.txt"));
    const lib = library();
    await expect(lib.index("coca")).rejects.toThrow();
    fs.writeFileSync(path.join(dir, "coca.txt"), "back again");
    expect((await lib.index("coca")).tokens.length).toBe(2);
  });
});
