import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { deserialiseIndex, IndexBuilder, serialiseIndex, type CorpusIndex } from "./inverted-index.ts";
import { SOURCES, type CorpusName, type CorpusSize, type CorpusSource } from "./sources.ts";

// Bump when the tokeniser or the file layout changes, so old cache files are not read as new ones.
const INDEX_FORMAT = "corpus-index/1 tokeniser/1";

/** What the index endpoint reports about a corpus, kept beside its index file so listing needs no index in memory. */
export type CorpusStats = { tokens: number; documents: number; vocabulary: number };

// Documents tokenised between yields to the event loop while building (a coca document takes ~3 ms).
const YIELD_EVERY = 10;

/** `error` is set when a built index could not be written (it is served from memory all the same). */
export type IndexEvent = { corpus: CorpusName; action: "built" | "loaded"; ms: number; file: string; error?: string };

/**
 * The corpora's indexes for one gateway process. Each is opened on first use: read from
 * `<dataDir>/corpus-index/<corpus>-<hash of inputs>.bin` when that file exists, else built from the
 * sources and written there (a changed input changes the hash, so it is rebuilt). Concurrent first
 * requests for a corpus share one load or build.
 */
export class CorpusLibrary {
  private readonly open = new Map<CorpusName, Promise<CorpusIndex>>();
  private readonly dir: string;

  constructor(
    dataDir: string,
    private readonly onEvent: (event: IndexEvent) => void = () => {},
    private readonly sources: Record<CorpusName, CorpusSource> = SOURCES,
  ) {
    this.dir = path.join(dataDir, "corpus-index");
  }

  index(name: CorpusName): Promise<CorpusIndex> {
    let pending = this.open.get(name);
    if (!pending) {
      pending = this.loadOrBuild(this.sources[name]);
      // A failed build is retried by the next request rather than remembered.
      pending.catch(() => this.open.delete(name));
      this.open.set(name, pending);
    }
    return pending;
  }

  /** Starts opening a corpus without waiting for it; a failure is left to the request that needs the index. */
  prepare(name: CorpusName): void {
    this.index(name).catch(() => {});
  }

  /**
   * Size of a corpus: from its open index, else from the stats file written with the index, else from
   * what its source knows without tokenising, else by building it. On a fresh data directory a build
   * of all four takes seconds (25 s on a loaded machine), too long for a listing.
   */
  async stats(name: CorpusName): Promise<CorpusSize> {
    const open = this.open.get(name);
    if (!open) {
      try {
        return JSON.parse(
          fs.readFileSync(/*turbopackIgnore: true*/ statsFile(this.indexFile(name)), "utf8"),
        ) as CorpusStats;
      } catch {
        // No stats yet: building the index writes them.
      }
      const known = this.sources[name].knownSize?.();
      if (known) return known;
    }
    return statsOf(await this.index(name));
  }

  /** The cache file a corpus's current inputs map to. */
  indexFile(name: CorpusName): string {
    return path.join(this.dir, `${name}-${fingerprint(this.sources[name])}.bin`);
  }

  private async loadOrBuild(source: CorpusSource): Promise<CorpusIndex> {
    // Yield once so every request arriving in this tick joins this promise before the synchronous work.
    await new Promise((resolve) => setImmediate(resolve));
    const file = this.indexFile(source.name);
    const began = performance.now();
    const cached = readIndexFile(file);
    if (cached) {
      this.onEvent({ corpus: source.name, action: "loaded", ms: performance.now() - began, file });
      return cached;
    }
    const builder = new IndexBuilder();
    for (const [i, doc] of source.readDocuments().entries()) {
      builder.add(doc);
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    const index = builder.finish();
    let error: string | undefined;
    try {
      writeAtomically(file, serialiseIndex(index));
      writeAtomically(statsFile(file), new TextEncoder().encode(JSON.stringify(statsOf(index))));
      removeStale(this.dir, source.name, file);
    } catch (err) {
      // A read-only or full data directory costs a rebuild per process, not the corpus.
      error = err instanceof Error ? err.message : String(err);
    }
    this.onEvent({
      corpus: source.name,
      action: "built",
      ms: performance.now() - began,
      file,
      ...(error ? { error } : {}),
    });
    return index;
  }
}

const statsFile = (indexFile: string) => indexFile.replace(/\.bin$/, ".json");

const statsOf = (index: CorpusIndex): CorpusStats => ({
  tokens: index.tokens.length,
  documents: index.docs.length,
  vocabulary: index.vocabulary.length,
});

/** A hash of what the index is made from: every input file's path, size and modification time. */
export function fingerprint(source: CorpusSource): string {
  const hash = createHash("sha256").update(INDEX_FORMAT);
  for (const file of source.inputFiles()) {
    const stat = fs.statSync(/*turbopackIgnore: true*/ file);
    hash.update(`\n${path.relative(process.cwd(), file)}\t${stat.size}\t${stat.mtimeMs}`);
  }
  return hash.digest("hex").slice(0, 16);
}

function readIndexFile(file: string): CorpusIndex | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(/*turbopackIgnore: true*/ file);
  } catch {
    return null;
  }
  try {
    return deserialiseIndex(bytes);
  } catch {
    // A truncated or foreign file is rebuilt over, not trusted.
    return null;
  }
}

// Another process may be reading the same path: it must see the old file or the whole new one.
function writeAtomically(file: string, bytes: Uint8Array): void {
  fs.mkdirSync(/*turbopackIgnore: true*/ path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  fs.writeFileSync(/*turbopackIgnore: true*/ tmp, bytes);
  fs.renameSync(/*turbopackIgnore: true*/ tmp, file);
}

function removeStale(dir: string, corpus: CorpusName, keep: string): void {
  for (const name of fs.readdirSync(/*turbopackIgnore: true*/ dir)) {
    const file = path.join(dir, name);
    if (file !== keep && file !== statsFile(keep) && name.startsWith(`${corpus}-`) && /\.(bin|json)$/.test(name))
      fs.rmSync(/*turbopackIgnore: true*/ file, { force: true });
  }
}
