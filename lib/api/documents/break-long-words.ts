/**
 * Cuts every word wider than `width` into pieces that fit with `separator` after them, so layout never
 * has to split a word itself. pdfkit measures what is left of a word again after each line it breaks
 * off, which is quadratic in the word's length: 100 kB of one word took about 30 s, 500 kB would take
 * many minutes. Here each distinct character is measured once, so the work is linear in the text.
 * A word is a run of anything but ASCII whitespace: a no-break space or a zero-width space is no break
 * for a font without such a glyph, so they stay inside the word.
 */
export function breakLongWords(
  text: string,
  width: number,
  widthOf: (char: string) => number,
  separator = "\n",
): string {
  const widths = new Map<string, number>();
  const measure = (char: string) => {
    let w = widths.get(char);
    if (w === undefined) {
      w = widthOf(char);
      widths.set(char, w);
    }
    return w;
  };
  const room = width - widthOf(separator);
  return text.replace(/[^ \t\n\r\f\v]+/g, (word) => {
    if (fits(word, width, measure)) return word;
    const pieces: string[] = [];
    let piece = "";
    let used = 0;
    // By code point: a surrogate pair is never cut in two.
    for (const char of word) {
      const w = measure(char);
      if (piece && used + w > room) {
        pieces.push(piece);
        piece = "";
        used = 0;
      }
      piece += char;
      used += w;
    }
    pieces.push(piece);
    return pieces.join(separator);
  });
}

function fits(word: string, width: number, measure: (char: string) => number): boolean {
  let used = 0;
  for (const char of word) {
    used += measure(char);
    if (used > width) return false;
  }
  return true;
}
