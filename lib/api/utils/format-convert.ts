import { marked } from "marked";
import sanitizeHtml from "sanitize-html";
import TurndownService from "turndown";

export const TEXT_FORMATS = ["markdown", "html", "plain"] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

// What survives in HTML output: document structure and links, never scripts, styles or handlers.
const SAFE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "h1", "h2", "del", "s"],
  allowedAttributes: { a: ["href", "title"], img: ["src", "alt", "title"], code: ["class"], th: ["align"], td: ["align"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https", "data"] },
};

const PARAGRAPH_END = /<\/(p|div|h[1-6]|blockquote|pre|table|ul|ol)>/gi;
const LINE_END = /<\/(li|tr)>|<br\s*\/?>/gi;
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " " };

export function sanitise(html: string): string {
  return sanitizeHtml(html, SAFE_HTML);
}

export function markdownToHtml(markdown: string): string {
  return sanitise(marked.parse(markdown, { async: false, gfm: true }));
}

export function htmlToMarkdown(html: string): string {
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  return turndown.turndown(sanitise(html)).trim();
}

export function htmlToPlain(html: string): string {
  const withBreaks = html.replace(PARAGRAPH_END, (m) => `${m}\n\n`).replace(LINE_END, (m) => `${m}\n`);
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (m) => ENTITIES[m] ?? m)
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function plainToHtml(text: string): string {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return text
    .trim()
    .split(/\n{2,}/)
    .map((para) => `<p>${escape(para).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
}

/** Converts between Markdown, HTML and plain text; every HTML result is sanitised. */
export function convertFormat(content: string, from: TextFormat, to: TextFormat): string {
  const html = from === "html" ? sanitise(content) : from === "markdown" ? markdownToHtml(content) : plainToHtml(content);
  if (to === "html") return html;
  if (to === "plain") return from === "plain" ? content.trim() : htmlToPlain(html);
  return from === "markdown" ? content.trim() : htmlToMarkdown(html);
}
