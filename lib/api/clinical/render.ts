import { marked } from "marked";
import sanitizeHtml from "sanitize-html";

// Headings, lists, emphasis, links and tables: all a condition document uses. Anything else a
// document might carry (scripts, styles, inline handlers, iframes) is dropped.
const ALLOWED = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "p",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "code",
    "a",
    "blockquote",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "br",
    "hr",
  ],
  allowedAttributes: { a: ["href", "title"] },
  allowedSchemes: ["http", "https", "mailto"],
};

/** A condition's Markdown as HTML that is safe to put in a page. */
export function renderConditionHtml(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return sanitizeHtml(html, ALLOWED).trim();
}
