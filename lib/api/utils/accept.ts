/**
 * Content negotiation on an Accept header: which of the types a route can answer with the client
 * prefers. Weights (q) order the media ranges, then specificity (image/png before image/* before
 * any); `*` and `*\/*` choose nothing (so the route's default stands), and `image/*` does not stand
 * for a type the header names itself (image/webp;q=0 refuses WebP even beside image/*).
 */
export function preferredType(accept: string | undefined, supports: readonly string[], fallback: string): string {
  if (!accept) return fallback;
  const ranges = mediaRanges(accept);
  const named = new Set(ranges.filter((r) => specificity(r.type) === 3).map((r) => r.type));
  const ordered = ranges.filter((r) => r.q > 0).sort((a, b) => b.q - a.q || specificity(b.type) - specificity(a.type));
  for (const range of ordered) {
    const chosen = supports.find((type) => {
      const lower = type.toLowerCase();
      return covers(range.type, lower) && (specificity(range.type) !== 2 || !named.has(lower));
    });
    if (chosen) return chosen;
  }
  return fallback;
}

type MediaRange = { type: string; q: number };

/** The header's media ranges in the order written, types lower-cased, each with its weight. */
function mediaRanges(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of splitOutsideQuotes(accept, ",")) {
    const [type = "", ...params] = splitOutsideQuotes(part, ";").map((s) => s.trim());
    if (!type) continue;
    let q: string | undefined;
    for (const param of params) {
      const eq = param.indexOf("=");
      if (eq > 0 && param.slice(0, eq).trim().toLowerCase() === "q")
        q = param
          .slice(eq + 1)
          .trim()
          .replace(/^"|"$/g, "");
    }
    ranges.push({ type: type.toLowerCase(), q: weight(q) });
  }
  return ranges;
}

/** A q value: absent, empty or unreadable is 1, clamped to 0..1 ("NaN" is 0). */
function weight(q: string | undefined): number {
  if (q === undefined || q === "") return 1;
  if (q === "NaN") return 0;
  const n = Number(q);
  return Number.isNaN(n) ? 1 : Math.min(1, Math.max(0, n));
}

const specificity = (type: string): 1 | 2 | 3 => (type === "*/*" || type === "*" ? 1 : type.endsWith("/*") ? 2 : 3);

function covers(range: string, type: string): boolean {
  if (range === type) return true;
  if (specificity(range) !== 2) return false;
  return range.slice(0, range.indexOf("/")) === type.slice(0, type.indexOf("/"));
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === "\\") i++;
    else if (char === '"') quoted = !quoted;
    else if (!quoted && char === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
