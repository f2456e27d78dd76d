import type { Source } from "./types.ts";

// Where lists of items sit in a tool's result: searches answer `{results: [...]}`, some adapters
// their upstream's own names.
const LIST_KEYS = ["results", "items", "articles", "papers", "data", "repositories"] as const;
const MAX_DEPTH = 3;
const MAX_PER_RESULT = 50;

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** A web address worth citing: http(s) only, so a tool's odd field never becomes a link. */
const link = (v: unknown): string | undefined => {
  const s = text(v);
  return s && /^https?:\/\//i.test(s) ? s : undefined;
};

/**
 * The things a tool's result cites: every object with a `title` (and, if it has one, a `url`/`link`),
 * found in the result itself, a list of them, or a list under `results` (and the like). `source` is
 * the item's own `source` field, else `fallback` (the tool's module).
 */
export function sourcesFrom(result: unknown, fallback: string): Source[] {
  const found: Source[] = [];
  const visit = (value: unknown, depth: number) => {
    if (found.length >= MAX_PER_RESULT || depth > MAX_DEPTH || !value || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const o = value as Record<string, unknown>;
    const url = link(o.url) ?? link(o.link) ?? link(o.html_url);
    // A `name` is a title only beside an address (a repository); alone it is often a person or a field.
    const title = text(o.title) ?? (url ? text(o.name) : undefined);
    if (title) {
      found.push({ title, ...(url ? { url } : {}), source: text(o.source) ?? fallback });
      return;
    }
    for (const key of LIST_KEYS) if (Array.isArray(o[key])) visit(o[key], depth + 1);
  };
  visit(result, 0);
  return found;
}

/** Each source once: by its address, else by its title (case and spacing ignored); first seen wins. */
export function dedupeSources(sources: readonly Source[]): Source[] {
  const seen = new Set<string>();
  const out: Source[] = [];
  for (const s of sources) {
    const key = s.url
      ? `url:${s.url.replace(/\/+$/, "").toLowerCase()}`
      : `title:${s.title.toLowerCase().replace(/\s+/g, " ")}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
  }
  return out;
}
