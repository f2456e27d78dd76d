import { formatDate, TEMPLATES, type DocumentRequest } from "./templates.ts";

/** The Markdown itself, under the template's title block. */
export function renderMarkdown(req: DocumentRequest): string {
  const template = TEMPLATES[req.template];
  const head =
    template.titleStyle === "subject"
      ? `${formatDate(req.date)}\n\n**Re: ${req.title}**`
      : `# ${req.title}${template.dated ? `\n\n_Report — ${formatDate(req.date)}_\n\n---` : ""}`;
  return `${head}\n\n${req.content.trim()}\n`;
}
