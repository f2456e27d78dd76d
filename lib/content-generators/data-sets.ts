import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/** An insult or a compliment. `id` is its 1-based position in the shipped data file. */
export type TextItem = { id: number; text: string };
/** A dad joke or an antijoke; `text` is setup and punchline as one line, for clients that want a string. */
export type JokeItem = { id: number; setup: string; punchline: string; text: string };

export const TEXT_SETS = ["insults", "compliments"] as const;
export const JOKE_SETS = ["dadjokes", "antijokes"] as const;
export type TextSetName = (typeof TEXT_SETS)[number];
export type JokeSetName = (typeof JOKE_SETS)[number];

// Read at run time from the repository (as lib/api/utils/citations.ts does), so the same path works
// under tsx and under `next start`.
const DATA_DIR = path.join(process.cwd(), "lib", "content-generators", "data");

const Line = z.string().trim().min(1);
const TextFile = z.array(Line).min(1);
const JokeFile = z.array(z.object({ setup: Line, punchline: Line })).min(1);

const cache = new Map<string, readonly (TextItem | JokeItem)[]>();

function readDataFile(name: string): unknown {
  return JSON.parse(fs.readFileSync(/*turbopackIgnore: true*/ path.join(DATA_DIR, `${name}.json`), "utf8"));
}

/** The shipped insults or compliments, read and checked once, then kept (they never change). */
export function textSet(name: TextSetName): readonly TextItem[] {
  let items = cache.get(name) as readonly TextItem[] | undefined;
  if (!items) {
    items = TextFile.parse(readDataFile(name)).map((text, i) => ({ id: i + 1, text }));
    cache.set(name, items);
  }
  return items;
}

/** The shipped dad jokes or antijokes, read and checked once, then kept. */
export function jokeSet(name: JokeSetName): readonly JokeItem[] {
  let items = cache.get(name) as readonly JokeItem[] | undefined;
  if (!items) {
    items = JokeFile.parse(readDataFile(name)).map(({ setup, punchline }, i) => ({
      id: i + 1,
      setup,
      punchline,
      text: `${setup} ${punchline}`,
    }));
    cache.set(name, items);
  }
  return items;
}
