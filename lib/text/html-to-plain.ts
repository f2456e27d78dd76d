import sanitizeHtml from "sanitize-html";

const PARAGRAPH_END = /<\/(p|div|h[1-6]|blockquote|pre|table|ul|ol)>/gi;
const LINE_END = /<\/(li|tr)>|<br\s*\/?>/gi;
const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&nbsp;": " ",
};

/** Visible text of an HTML fragment: blocks become paragraphs, <br> and list items new lines, entities decoded. */
export function htmlToPlain(html: string): string {
  const withBreaks = html.replace(PARAGRAPH_END, (m) => `${m}\n\n`).replace(LINE_END, (m) => `${m}\n`);
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (m) => ENTITIES[m] ?? m)
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
