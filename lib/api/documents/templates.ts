import { toSafeText } from "../../gateway/http/safe-text.ts";

export const DOCUMENT_FORMATS = ["pdf", "docx", "markdown"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** Named layouts: what goes above the content and whether pages are numbered. */
export const TEMPLATES = {
  default: {
    description: "Title as a heading, then the content",
    titleStyle: "heading",
    dated: false,
    pageNumbers: false,
  },
  report: {
    description: "Large title, a dated 'Report' line and a rule; numbered pages",
    titleStyle: "cover",
    dated: true,
    pageNumbers: true,
  },
  letter: {
    description: "Date at the top right, the title as a bold 'Re:' subject line",
    titleStyle: "subject",
    dated: true,
    pageNumbers: false,
  },
} as const;
export type TemplateName = keyof typeof TEMPLATES;
export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];

export const CONTENT_TYPES: Record<DocumentFormat, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  markdown: "text/markdown; charset=utf-8",
};
const EXTENSIONS: Record<DocumentFormat, string> = { pdf: "pdf", docx: "docx", markdown: "md" };

export type DocumentRequest = { title: string; content: string; template: TemplateName; date: Date };

/**
 * `attachment` with an ASCII filename from the title and the exact title as RFC 5987 filename*.
 * Cut by code point and made well-formed first: encodeURIComponent throws on a lone surrogate.
 */
export function contentDisposition(title: string, format: DocumentFormat): string {
  const ascii =
    title
      .normalize("NFKD")
      .replace(/[^\w\s-]+/g, "")
      .trim()
      .replace(/\s+/g, "-")
      .slice(0, 80) || "document";
  const ext = EXTENSIONS[format];
  return `attachment; filename="${ascii}.${ext}"; filename*=UTF-8''${encodeURIComponent(`${toSafeText(Array.from(title).slice(0, 120).join(""))}.${ext}`)}`;
}

export function formatDate(date: Date): string {
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}
