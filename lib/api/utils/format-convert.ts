import { marked } from "marked";
import sanitizeHtml from "sanitize-html";
import TurndownService from "turndown";
import { GatewayError } from "../../errors.ts";
import { htmlToPlain } from "../../text/html-to-plain.ts";
import type { TEXT_FORMATS } from "./formats.ts";

export type TextFormat = (typeof TEXT_FORMATS)[number];

// What survives in HTML output: document structure and links, never scripts, styles or handlers.
const SAFE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "h1", "h2", "del", "s"],
  allowedAttributes: {
    a: ["href", "title"],
    img: ["src", "alt", "title"],
    code: ["class"],
    th: ["align"],
    td: ["align"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https", "data"] },
};

export function sanitise(html: string): string {
  return sanitizeHtml(html, SAFE_HTML);
}

export function markdownToHtml(markdown: string): string {
  return sanitise(marked.parse(markdown, { async: false, gfm: true }));
}

// turndown (through domino) recurses per element: thousands of levels take seconds, then overflow the stack.
export const MAX_HTML_DEPTH = 500;

const tooDeep = () => new GatewayError(400, "content is nested too deeply to convert");

export function htmlToMarkdown(html: string): string {
  let depth = 0;
  let deepest = 0;
  const safe = sanitizeHtml(html, {
    ...SAFE_HTML,
    onOpenTag: () => void (deepest = Math.max(deepest, ++depth)),
    onCloseTag: () => void depth--,
  });
  if (deepest > MAX_HTML_DEPTH) throw tooDeep();
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  return turndown.turndown(safe).trim();
}

export function plainToHtml(text: string): string {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return text
    .trim()
    .split(/\n{2,}/)
    .map((para) => `<p>${escape(para).replace(/\n/g, "<br>")}</p>`)
    .join("\n");
}

/**
 * Converts between Markdown, HTML and plain text; every HTML result is sanitised. marked, turndown and
 * domino recurse once per nesting level, so deeply nested input (`> > > …`, `<div><div>…`) overflows
 * the stack: that is the input's fault, a 400, not a 500. HTML is measured before turndown sees it.
 */
export function convertFormat(content: string, from: TextFormat, to: TextFormat): string {
  try {
    return convert(content, from, to);
  } catch (err) {
    if (err instanceof RangeError && /call stack/.test(err.message)) throw tooDeep();
    throw err;
  }
}

function convert(content: string, from: TextFormat, to: TextFormat): string {
  const html =
    from === "html" ? sanitise(content) : from === "markdown" ? markdownToHtml(content) : plainToHtml(content);
  if (to === "html") return html;
  if (to === "plain") return from === "plain" ? content.trim() : htmlToPlain(html);
  return from === "markdown" ? content.trim() : htmlToMarkdown(html);
}
