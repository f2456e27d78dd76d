/**
 * What an ISBN-10 or ISBN-13 looks like, digits maybe split by single hyphens or spaces: the shape
 * normaliseIsbn reads (it also checks the check digit, which no pattern can).
 */
export const ISBN_SHAPE = /^(?:(?:\d[ -]?){9}[\dXx]|(?:\d[ -]?){12}\d)$/;

/** ISBN-10 or ISBN-13 with a valid check digit, normalised (hyphens and spaces removed), or null. */
export function normaliseIsbn(raw: string): string | null {
  const isbn = raw.replace(/[\s-]/g, "").toUpperCase();
  if (/^\d{9}[\dX]$/.test(isbn)) {
    const sum = [...isbn].reduce((acc, ch, i) => acc + (ch === "X" ? 10 : Number(ch)) * (10 - i), 0);
    return sum % 11 === 0 ? isbn : null;
  }
  if (/^\d{13}$/.test(isbn)) {
    const sum = [...isbn].reduce((acc, ch, i) => acc + Number(ch) * (i % 2 ? 3 : 1), 0);
    return sum % 10 === 0 ? isbn : null;
  }
  return null;
}
