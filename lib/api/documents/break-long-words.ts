/**
 * Cuts every word wider than `width` into pieces that fit, each ending in a line break, so layout never
 * has to split a word itself. pdfkit measures what is left of a word again after each line it breaks
 * off, which is quadratic in the word's length: 100 kB of one word took about 30 s, 500 kB would take
 * many minutes. Here each distinct character is measured once, so the work is linear in the text.
 * A word is a run of anything but ASCII whitespace: a no-break space or a zero-width space is no break
 * for a font without such a glyph, so they stay inside the word.
 *
 * `soft` (a space) joins two pieces instead where it is certain to be a break opportunity too: between
 * letters and digits. Elsewhere the Unicode line-breaking rules can glue a space to its neighbours
 * (`[ [`, `a ,`), and 100 kB of `[` would again be one word.
 */
export function breakLongWords(text: string, width: number, widthOf: (char: string) => number, soft?: string): string {
  const widths = new Map<string, number>();
  const measure = (char: string) => {
    let w = widths.get(char);
    if (w === undefined) {
      w = widthOf(char);
      widths.set(char, w);
    }
    return w;
  };
  const room = width - Math.max(measure("\n"), soft === undefined ? 0 : measure(soft));
  return text.replace(/[^ \t\n\r\f\v]+/g, (word) => {
    if (fits(word, width, measure)) return word;
    let out = "";
    let used = 0;
    let last = "";
    // By code point: a surrogate pair is never cut in two.
    for (const char of word) {
      const w = measure(char);
      if (used > 0 && used + w > room) {
        out += soft !== undefined && LETTER_OR_DIGIT.test(last) && LETTER_OR_DIGIT.test(char) ? soft : "\n";
        used = 0;
      }
      out += char;
      used += w;
      last = char;
    }
    return out;
  });
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

function fits(word: string, width: number, measure: (char: string) => number): boolean {
  let used = 0;
  for (const char of word) {
    used += measure(char);
    if (used > width) return false;
  }
  return true;
}
