/**
 * A long text is summarised in parts. Parts are cut where the text already breaks: between paragraphs,
 * else between sentences, and only a single sentence longer than a part is cut between words. Parts
 * are then packed greedily up to the size, so their number is close to the least possible.
 */

const sentences = new Intl.Segmenter("en", { granularity: "sentence" });

/** Pieces no longer than max: the sentences of a paragraph too long, or a sentence cut at words. */
function pieces(paragraph: string, max: number): string[] {
  if (paragraph.length <= max) return [paragraph];
  return [...sentences.segment(paragraph)].flatMap(({ segment }) => {
    const s = segment.trim();
    if (s.length <= max) return s ? [s] : [];
    const out: string[] = [];
    let rest = s;
    while (rest.length > max) {
      const cut = rest.lastIndexOf(" ", max);
      const at = cut > 0 ? cut : max;
      out.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (rest) out.push(rest);
    return out;
  });
}

/** The text in parts of at most maxChars characters, in order, split at paragraphs, sentences, words. */
export function splitIntoChunks(text: string, maxChars: number): string[] {
  const chunks: string[] = [];
  let current = "";
  for (const paragraph of text.split(/\n\s*\n/)) {
    const p = paragraph.trim();
    if (!p) continue;
    for (const [i, piece] of pieces(p, maxChars).entries()) {
      // Paragraphs rejoin with a blank line, the pieces of one long paragraph with a space.
      const sep = i === 0 ? "\n\n" : " ";
      if (current && current.length + sep.length + piece.length > maxChars) {
        chunks.push(current);
        current = "";
      }
      current = current ? current + sep + piece : piece;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}
