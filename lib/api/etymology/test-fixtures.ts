// Records for the etymology unit tests: each test names only the fields it is about.
import type { EtymologyRecord } from "./lineage.ts";

/** A GCIDE headword record for `word` (headword capitalised), a noun with no etymology unless given. */
export const etymologyRecord = (word: string, fields: Partial<EtymologyRecord> = {}): EtymologyRecord => ({
  word,
  headword: word[0]!.toUpperCase() + word.slice(1),
  pronunciation: null,
  pos: ["noun"],
  definitions: [],
  etymology: null,
  lineage: [],
  cognates: [],
  ...fields,
});
