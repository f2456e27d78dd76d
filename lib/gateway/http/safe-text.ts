/**
 * Text PostgreSQL cannot store and encodeURIComponent cannot encode: a NUL character, or one half of
 * a UTF-16 surrogate pair without the other (JSON's "\ud800" escape makes one). isWellFormed and
 * includes are native scans, several times faster than one regex over a multi-megabyte body, and
 * free on Latin-1 strings, which V8 knows cannot hold a surrogate.
 */
export function isUnsafeText(text: string): boolean {
  return !text.isWellFormed() || text.includes("\u0000");
}

/** The text with NULs removed and lone surrogates replaced by U+FFFD, for text that must be stored or sent whatever it holds. */
export function toSafeText(text: string): string {
  return isUnsafeText(text) ? text.toWellFormed().replaceAll("\u0000", "") : text;
}

export type UnsafeTextAt = { path: Array<string | number>; inKey: boolean };

/**
 * Where the first string (or object key) holding unsafe text sits in parsed input — JSON bodies,
 * query and path parameters — or undefined when there is none. Iterative, so any nesting depth is
 * safe; only arrays and plain objects are entered (uploaded files are not text).
 */
export function findUnsafeText(value: unknown): UnsafeTextAt | undefined {
  return holdsUnsafeText(value) ? locateUnsafeText(value) : undefined;
}

// The common case (nothing found) walks without building paths.
function holdsUnsafeText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (isUnsafeText(v)) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (isPlainObject(v)) {
      for (const key in v) {
        if (isUnsafeText(key)) return true;
        stack.push(v[key]);
      }
    }
  }
  return false;
}

// Each entry links to its parent, so a path is built only for the field that is reported.
type Entry = { v: unknown; key?: string | number; parent?: Entry };

function locateUnsafeText(value: unknown): UnsafeTextAt | undefined {
  const stack: Entry[] = [{ v: value }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const v = entry.v;
    if (typeof v === "string") {
      if (isUnsafeText(v)) return { path: pathOf(entry), inKey: false };
    } else if (Array.isArray(v)) {
      // Pushed last to first, so fields are reported in the order the client wrote them.
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], key: i, parent: entry });
    } else if (isPlainObject(v)) {
      const keys = Object.keys(v);
      if (keys.some((key) => isUnsafeText(key))) return { path: pathOf(entry), inKey: true };
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ v: v[keys[i]!], key: keys[i]!, parent: entry });
    }
  }
  return undefined;
}

function pathOf(entry: Entry): Array<string | number> {
  const path: Array<string | number> = [];
  for (let e: Entry | undefined = entry; e?.key !== undefined; e = e.parent) path.push(e.key);
  return path.reverse();
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
