import type { CorpusDocument } from "./sources.ts";

/** A corpus document titled by its id, from 2000, of register "r" and genre "g" unless given. */
export const corpusDocument = (id: string, text: string, fields: Partial<CorpusDocument> = {}): CorpusDocument => ({
  id,
  title: id,
  author: null,
  year: 2000,
  register: "r",
  genre: "g",
  text,
  ...fields,
});
