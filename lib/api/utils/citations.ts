import fs from "node:fs";
import path from "node:path";
import { Cite, plugins } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-csl";
import { parse as parseName } from "@citation-js/name";
import type { CITATION_STYLES } from "./formats.ts";

export type CitationStyle = (typeof CITATION_STYLES)[number];

/** Form A's source and Form B's citation, as the spec gives them. */
export type SourceA = { title: string; author?: string; year?: number | string; url?: string };
export type SourceB = {
  title: string;
  authors?: string[];
  year?: number | string;
  journal?: string;
  doi?: string;
  url?: string;
};

const CSL_DIR = path.join(process.cwd(), "lib", "api", "utils", "data", "csl");
// Style name → the shipped CSL file (CitationStyles.org, CC BY-SA 3.0) and the locale it is written for.
const STYLES: Record<Exclude<CitationStyle, "bibtex">, { file: string; lang: string }> = {
  apa: { file: "apa.csl", lang: "en-US" },
  mla: { file: "modern-language-association.csl", lang: "en-US" },
  chicago: { file: "chicago-author-date.csl", lang: "en-US" },
  harvard: { file: "harvard-cite-them-right.csl", lang: "en-GB" },
};

let registered = false;
function registerStyles(): void {
  if (registered) return;
  const csl = plugins.config.get("@csl");
  for (const [name, style] of Object.entries(STYLES)) {
    csl.styles.add(
      `gateway-${name}`,
      fs.readFileSync(/*turbopackIgnore: true*/ path.join(CSL_DIR, style.file), "utf8"),
    );
  }
  csl.locales.add("en-GB", fs.readFileSync(/*turbopackIgnore: true*/ path.join(CSL_DIR, "locales-en-GB.xml"), "utf8"));
  csl.locales.add("en-US", fs.readFileSync(/*turbopackIgnore: true*/ path.join(CSL_DIR, "locales-en-US.xml"), "utf8"));
  registered = true;
}

/** One CSL-JSON item from either form; the item type follows from what the caller gave. */
export function toCsl(source: SourceA | SourceB): Record<string, unknown> {
  const authors =
    "authors" in source && source.authors
      ? source.authors
      : "author" in source && source.author
        ? splitAuthors(source.author)
        : [];
  const journal = "journal" in source ? source.journal : undefined;
  const doi = "doi" in source ? source.doi : undefined;
  const year = source.year === undefined ? undefined : Number(source.year);
  return {
    id: "item",
    type: journal ? "article-journal" : source.url ? "webpage" : "book",
    title: source.title,
    author: authors.map((a) => parseName(a)),
    ...(year && Number.isFinite(year) ? { issued: { "date-parts": [[year]] } } : {}),
    ...(journal ? { "container-title": journal } : {}),
    ...(doi ? { DOI: doi.replace(/^https?:\/\/(dx\.)?doi\.org\//i, "") } : {}),
    ...(source.url ? { URL: source.url } : {}),
  };
}

// "Ada Lovelace and Alan Turing" or "Lovelace, A.; Turing, A." → one name each.
function splitAuthors(author: string): string[] {
  return author
    .split(/\s*;\s*|\s+and\s+|\s*&\s*/)
    .map((a) => a.trim())
    .filter(Boolean);
}

export type FormattedCitation = { citation: string; html: string | null; style: CitationStyle };

export function formatCitation(source: SourceA | SourceB, style: CitationStyle): FormattedCitation {
  registerStyles();
  const cite = new Cite(toCsl(source));
  if (style === "bibtex") return { citation: cite.format("bibtex").trim(), html: null, style };
  const { lang } = STYLES[style];
  const template = `gateway-${style}`;
  return {
    citation: cite.format("bibliography", { format: "text", template, lang }).trim(),
    html: cite.format("bibliography", { format: "html", template, lang }).trim(),
    style,
  };
}
