import fs from "node:fs";
import path from "node:path";
import { marked, type Token, type Tokens } from "marked";

/**
 * The guides the portal shows at /docs/guides/<slug>: Markdown files of this repository, read from the
 * working directory (the server runs from the checkout's root; next.config.mjs's
 * outputFileTracingIncludes names the files for a build's output). A page is found by looking its slug up in the catalogue built here from the file names below
 * and the listings of docs/adr, docs/areas and docs/notes: nothing from the address ever becomes a path.
 */

/** The top-level guides, by topic, as the index lists them: a slug and its file from the repository root. */
export const TOPICS: ReadonlyArray<{
  topic: string;
  /** A slug, its file from the repository root, and a title when the file's first heading will not do. */
  guides: ReadonlyArray<readonly [slug: string, file: string, title?: string]>;
}> = [
  {
    topic: "Start here",
    guides: [
      ["readme", "README.md", "Overview"],
      ["getting-started", "docs/getting-started.md"],
      ["configuration", "docs/configuration.md"],
    ],
  },
  {
    topic: "Calling the API",
    guides: [
      ["api", "docs/api.md"],
      ["llm", "docs/llm.md"],
      ["routing", "docs/routing.md"],
      ["cache", "docs/cache.md"],
      ["guardrails", "docs/guardrails.md"],
      ["research", "docs/research.md"],
    ],
  },
  {
    topic: "Portal, keys and teams",
    guides: [
      ["portal", "docs/portal.md"],
      ["teams", "docs/teams.md"],
    ],
  },
  {
    topic: "Running it",
    guides: [
      ["operations", "docs/operations.md"],
      ["tracing", "docs/tracing.md"],
      ["performance", "docs/performance.md"],
      ["security", "SECURITY.md"],
    ],
  },
  {
    topic: "How it is built",
    guides: [
      ["architecture", "docs/architecture.md"],
      ["routes", "docs/routes.md"],
      ["adr", "docs/adr/README.md"],
    ],
  },
];

/** Folders whose Markdown files are pages too, each under a slug prefix: `adr/0001-x.md` is `adr-0001-x`. */
const FOLDERS = [
  { dir: "docs/adr", prefix: "adr" },
  { dir: "docs/areas", prefix: "areas" },
  { dir: "docs/notes", prefix: "notes" },
] as const;

/** The topic the reference areas' notes are listed under (from the docs/areas listing). */
export const AREAS_TOPIC = "Reference data areas";

// A file name a listing may contribute: lower-case words and digits, nothing that could climb out.
const LISTED_NAME = /^[a-z0-9][a-z0-9-]*\.md$/;

export type Catalogue = {
  /** Slug → file (relative to the repository root, "/"-separated). */
  files: ReadonlyMap<string, string>;
  /** File → slug: how links between files become links between pages. */
  slugs: ReadonlyMap<string, string>;
};

/** Every page there is: the top-level guides and what the folders hold, read from `root`. */
export function readCatalogue(root: string): Catalogue {
  const entries = TOPICS.flatMap((t) => t.guides.map(([slug, file]): [string, string] => [slug, file]));
  for (const { dir, prefix } of FOLDERS) {
    let names: string[] = [];
    try {
      // Not traced by the bundler (the whole project would be): next.config.mjs includes the files instead.
      names = fs.readdirSync(path.join(/*turbopackIgnore: true*/ root, dir));
    } catch {
      continue; // A checkout without the folder: its pages are simply not there.
    }
    for (const name of names.sort()) {
      if (name === "README.md" || !LISTED_NAME.test(name)) continue;
      entries.push([`${prefix}-${name.slice(0, -3)}`, `${dir}/${name}`]);
    }
  }
  return { files: new Map(entries), slugs: new Map(entries.map(([slug, file]) => [file, slug])) };
}

export type LinkTarget =
  | { kind: "page"; href: string }
  | { kind: "anchor"; href: string }
  | { kind: "external"; href: string }
  /** A file the portal does not serve (source code, a folder): its text is shown, unlinked. */
  | { kind: "none" };

/**
 * Where a guide's link goes in the portal: another guide's page (with its fragment), a fragment of
 * this page, an http(s) address, or nowhere. `from` is the linking file, relative to the root.
 */
export function linkTarget(href: string, from: string, catalogue: Catalogue): LinkTarget {
  if (href.startsWith("#")) return { kind: "anchor", href };
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) {
    try {
      const url = new URL(href);
      return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:"
        ? { kind: "external", href: url.href }
        : { kind: "none" };
    } catch {
      return { kind: "none" };
    }
  }
  if (href.startsWith("//")) return { kind: "none" };
  const hash = href.indexOf("#");
  const [file, fragment] = hash === -1 ? [href, ""] : [href.slice(0, hash), href.slice(hash)];
  // A path on this site (/openapi.json, /keys): the portal serves it as it is.
  if (file.startsWith("/")) return { kind: "page", href };
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURI(file)));
  const slug = catalogue.slugs.get(resolved);
  return slug ? { kind: "page", href: `/docs/guides/${slug}${fragment}` } : { kind: "none" };
}

/** A heading's text as an id, as GitHub makes it: lower case, punctuation gone, spaces as hyphens. */
export function headingId(text: string, seen: Map<string, number>): string {
  const base =
    text
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-") || "section";
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

/** The words of inline tokens, without their Markdown: a link's text, a code span's code. */
export function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((t) => {
      if ("tokens" in t && t.tokens) return plainText(t.tokens);
      if (t.type === "codespan" || t.type === "text" || t.type === "escape") return (t as Tokens.Codespan).text;
      if (t.type === "br") return " ";
      return "raw" in t ? t.raw : "";
    })
    .join("");
}

const SUMMARY_MAX = 150;

export type Guide = {
  slug: string;
  file: string;
  /** The first heading. */
  title: string;
  /** The first sentence of the first paragraph, as plain text. */
  summary: string;
  tokens: Token[];
};

/** The Markdown read into a guide: its tokens, its first heading as the title and a line of summary. */
export function parseGuide(slug: string, file: string, markdown: string): Guide {
  const tokens = marked.lexer(markdown, { gfm: true });
  const heading = tokens.find((t): t is Tokens.Heading => t.type === "heading");
  const paragraph = tokens.find((t): t is Tokens.Paragraph => t.type === "paragraph");
  const first = plainText(paragraph?.tokens).replace(/\s+/g, " ").trim();
  // The first sentence: up to a stop followed by a space and a capital (not "e.g. x" or "1.5 s").
  const sentence = /^.*?[.!?](?=\s+[A-Z(`]|$)/.exec(first)?.[0] ?? first;
  // A line or two in the index, not a paragraph: a long sentence is cut at a word.
  const summary =
    sentence.length <= SUMMARY_MAX ? sentence : `${sentence.slice(0, sentence.lastIndexOf(" ", SUMMARY_MAX))}…`;
  return {
    slug,
    file,
    title: heading ? plainText(heading.tokens) : slug,
    summary,
    tokens,
  };
}

const root = () => process.cwd();
let cached: { catalogue: Catalogue; guides: Map<string, Guide | null> } | undefined;

/** The catalogue and the guides read so far: kept for the process in production, read afresh in development. */
function store() {
  if (!cached || process.env.NODE_ENV !== "production")
    cached = { catalogue: readCatalogue(root()), guides: new Map() };
  return cached;
}

export function catalogue(): Catalogue {
  return store().catalogue;
}

/** The guide a slug names, or null when there is none (no such page, or its file is gone). */
export function findGuide(slug: string): Guide | null {
  const { catalogue, guides } = store();
  if (guides.has(slug)) return guides.get(slug)!;
  const file = catalogue.files.get(slug);
  let guide: Guide | null = null;
  if (file) {
    try {
      guide = parseGuide(slug, file, fs.readFileSync(path.join(/*turbopackIgnore: true*/ root(), file), "utf8"));
    } catch {
      guide = null;
    }
  }
  guides.set(slug, guide);
  return guide;
}

export type IndexEntry = { slug: string; title: string; summary: string };

/** The index at /docs: each topic's guides with their title and summary, then the reference areas' notes. */
export function guideIndex(): Array<{ topic: string; guides: IndexEntry[] }> {
  const entry = (slug: string, title?: string): IndexEntry[] => {
    const g = findGuide(slug);
    return g ? [{ slug, title: title ?? g.title, summary: g.summary }] : [];
  };
  const topics = TOPICS.map((t) => ({
    topic: t.topic,
    guides: t.guides.flatMap(([slug, , title]) => entry(slug, title)),
  }));
  // The areas' notes by name alone ("AAC symbols" of "AAC symbols: reference and decisions"): their
  // first paragraphs are reference tables' preambles, not summaries.
  const areas = [...catalogue().files.keys()]
    .filter((s) => s.startsWith("areas-"))
    .flatMap((slug) => entry(slug))
    .map((g) => ({ ...g, title: g.title.split(": ")[0]!, summary: "" }));
  return [...topics, { topic: AREAS_TOPIC, guides: areas }].filter((t) => t.guides.length > 0);
}
