import { tokenise } from "./tokenise.ts";
import type { CorpusDocument } from "./sources.ts";

/** What the index keeps about a document: its metadata and how many tokens it has. */
export type DocumentMeta = {
  id: string;
  title: string;
  author: string | null;
  year: number;
  decade: number;
  register: string;
  genre: string;
  tokens: number;
};

/**
 * A positional inverted index over one corpus. Token positions run through all documents in order;
 * the text itself is kept as UTF-8 with each token's byte span, so a concordance line is cut from the
 * original text (its case and punctuation) without re-tokenising anything.
 */
export type CorpusIndex = {
  /** Distinct folded words, sorted by code unit; a word's id is its place here. */
  vocabulary: string[];
  /** Token ids in text order. */
  tokens: Uint32Array;
  /** Byte offset of each token in `text`, and its byte length. */
  starts: Uint32Array;
  lengths: Uint16Array;
  /** Positions of word id w are postings[postingStarts[w] .. postingStarts[w+1]), ascending. */
  postingStarts: Uint32Array;
  postings: Uint32Array;
  /** Document d holds positions docStarts[d] .. docStarts[d+1]. */
  docStarts: Uint32Array;
  docs: DocumentMeta[];
  text: Uint8Array;
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();
// Between documents, so that no text slice runs from one into the next.
const DOCUMENT_SEPARATOR = encoder.encode("\n\n");

export function buildIndex(documents: CorpusDocument[]): CorpusIndex {
  const builder = new IndexBuilder();
  for (const doc of documents) builder.add(doc);
  return builder.finish();
}

/**
 * Builds an index one document at a time, so a caller can yield to the event loop between documents
 * (coca takes seconds to tokenise, and the gateway's other requests must not wait for it).
 */
export class IndexBuilder {
  private readonly provisional = new Map<string, number>();
  private readonly words: string[] = [];
  private ids = new Uint32Array(1 << 16);
  private starts = new Uint32Array(1 << 16);
  private lengths = new Uint16Array(1 << 16);
  private n = 0;
  private readonly texts: Uint8Array[] = [];
  private readonly docStarts: number[] = [0];
  private readonly docs: DocumentMeta[] = [];
  private textBytes = 0;

  add(doc: CorpusDocument): void {
    const bytes = encoder.encode(doc.text);
    const ascii = bytes.length === doc.text.length;
    let charPos = 0;
    let bytePos = 0;
    const found = tokenise(doc.text);
    if (this.n + found.length > this.ids.length) {
      const size = Math.max(this.ids.length * 2, this.n + found.length);
      this.ids = grow(this.ids, size);
      this.starts = grow(this.starts, size);
      this.lengths = grow16(this.lengths, size);
    }
    for (const token of found) {
      let id = this.provisional.get(token.norm);
      if (id === undefined) {
        id = this.words.length;
        this.provisional.set(token.norm, id);
        this.words.push(token.norm);
      }
      // UTF-16 offsets from the tokeniser become byte offsets into the UTF-8 text.
      const startByte = ascii ? token.start : (bytePos += byteLength(doc.text, charPos, token.start));
      const length = ascii ? token.end - token.start : byteLength(doc.text, token.start, token.end);
      if (!ascii) {
        bytePos += length;
        charPos = token.end;
      }
      this.ids[this.n] = id;
      this.starts[this.n] = this.textBytes + startByte;
      this.lengths[this.n] = Math.min(length, 0xffff);
      this.n++;
    }
    this.texts.push(bytes, DOCUMENT_SEPARATOR);
    this.textBytes += bytes.length + DOCUMENT_SEPARATOR.length;
    const year = doc.year;
    this.docs.push({
      id: doc.id,
      title: doc.title,
      author: doc.author,
      year,
      decade: Math.floor(year / 10) * 10,
      register: doc.register,
      genre: doc.genre,
      tokens: this.n - this.docStarts.at(-1)!,
    });
    this.docStarts.push(this.n);
  }

  finish(): CorpusIndex {
    const { words, n } = this;
    // Sorted ids make a prefix wildcard ("lov*") one binary search instead of a vocabulary scan.
    const order = words.map((_, i) => i).sort((a, b) => (words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0));
    const remap = new Uint32Array(words.length);
    order.forEach((old, rank) => (remap[old] = rank));
    const tokens = this.ids.slice(0, n);
    for (let i = 0; i < n; i++) tokens[i] = remap[tokens[i]!]!;

    const postingStarts = new Uint32Array(words.length + 1);
    for (let i = 0; i < n; i++) postingStarts[tokens[i]! + 1]!++;
    for (let w = 0; w < words.length; w++) postingStarts[w + 1]! += postingStarts[w]!;
    const fill = postingStarts.slice(0, words.length);
    const postings = new Uint32Array(n);
    for (let i = 0; i < n; i++) postings[fill[tokens[i]!]!++] = i;

    const text = new Uint8Array(this.textBytes);
    let offset = 0;
    for (const part of this.texts) {
      text.set(part, offset);
      offset += part.length;
    }
    return {
      vocabulary: order.map((i) => words[i]!),
      tokens,
      starts: this.starts.slice(0, n),
      lengths: this.lengths.slice(0, n),
      postingStarts,
      postings,
      docStarts: Uint32Array.from(this.docStarts),
      docs: this.docs,
      text,
    };
  }
}

function byteLength(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function grow(a: Uint32Array, size: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}

function grow16(a: Uint16Array, size: number): Uint16Array<ArrayBuffer> {
  const b = new Uint16Array(size);
  b.set(a);
  return b;
}

/** How many tokens the corpus has. */
export const tokenCount = (index: CorpusIndex): number => index.tokens.length;

/** How often word id w occurs. */
export const wordFrequency = (index: CorpusIndex, w: number): number =>
  index.postingStarts[w + 1]! - index.postingStarts[w]!;

/** The positions of word id w, ascending (a view, not a copy). */
export const positionsOf = (index: CorpusIndex, w: number): Uint32Array =>
  index.postings.subarray(index.postingStarts[w], index.postingStarts[w + 1]);

/** The id of a folded word, or -1. */
export function wordId(index: CorpusIndex, word: string): number {
  const v = index.vocabulary;
  let lo = 0;
  let hi = v.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const w = v[mid]!;
    if (w === word) return mid;
    if (w < word) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The document that holds token position p. */
export function documentAt(index: CorpusIndex, p: number): number {
  const s = index.docStarts;
  let lo = 0;
  let hi = s.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (s[mid]! <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The original text from the start of token a to the end of token b (inclusive). */
export function textBetween(index: CorpusIndex, a: number, b: number): string {
  return decoder.decode(index.text.subarray(index.starts[a], index.starts[b]! + index.lengths[b]!));
}

/** The original text between the end of token a and the start of token b (what separates them). */
export function textGap(index: CorpusIndex, a: number, b: number): string {
  return decoder.decode(index.text.subarray(index.starts[a]! + index.lengths[a]!, index.starts[b]));
}

const MAGIC = "CORPIDX1";

/**
 * The index as one file: a magic, the length of a JSON header (vocabulary, documents, array lengths),
 * then each typed array at a 4-byte aligned offset, so loading is one read plus views, no parsing of
 * the big arrays.
 */
export function serialiseIndex(index: CorpusIndex): Uint8Array {
  const header = encoder.encode(JSON.stringify({ vocabulary: index.vocabulary, docs: index.docs }));
  const arrays = sections(index);
  let size = align(MAGIC.length + 4 + header.length);
  for (const a of arrays) size = align(size + a.byteLength);
  const out = new Uint8Array(size);
  out.set(encoder.encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(MAGIC.length, header.length, true);
  out.set(header, MAGIC.length + 4);
  let offset = align(MAGIC.length + 4 + header.length);
  for (const a of arrays) {
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offset);
    offset = align(offset + a.byteLength);
  }
  return out;
}

export function deserialiseIndex(file: Uint8Array): CorpusIndex {
  // Typed-array views need 4-byte aligned offsets; a pooled Buffer may start anywhere.
  const bytes = file.byteOffset % 4 === 0 ? file : file.slice();
  if (decoder.decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) throw new Error("not a corpus index file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(MAGIC.length, true);
  const header = JSON.parse(decoder.decode(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength))) as Pick<
    CorpusIndex,
    "vocabulary" | "docs"
  >;
  const n = header.docs.reduce((sum, d) => sum + d.tokens, 0);
  const v = header.vocabulary.length;
  let offset = align(MAGIC.length + 4 + headerLength);
  const take32 = (count: number) => {
    const a = new Uint32Array(bytes.buffer, bytes.byteOffset + offset, count);
    offset = align(offset + count * 4);
    return a;
  };
  const tokens = take32(n);
  const starts = take32(n);
  const postingStarts = take32(v + 1);
  const postings = take32(n);
  const docStarts = take32(header.docs.length + 1);
  const lengths = new Uint16Array(bytes.buffer, bytes.byteOffset + offset, n);
  offset = align(offset + n * 2);
  const text = bytes.subarray(offset);
  if (postingStarts[v] !== n || docStarts[header.docs.length] !== n)
    throw new Error("corpus index file is inconsistent");
  return {
    vocabulary: header.vocabulary,
    docs: header.docs,
    tokens,
    starts,
    lengths,
    postingStarts,
    postings,
    docStarts,
    text,
  };
}

function sections(index: CorpusIndex) {
  return [index.tokens, index.starts, index.postingStarts, index.postings, index.docStarts, index.lengths, index.text];
}

const align = (n: number) => (n + 3) & ~3;
