import PDFDocument from "pdfkit";
import { breakLongWords } from "./break-long-words.ts";
import { markdownBlocks, plainText, type Block, type Span } from "./markdown-blocks.ts";
import { formatDate, TEMPLATES, type DocumentRequest } from "./templates.ts";

type Doc = PDFKit.PDFDocument;

const HEADING_SIZES = [0, 20, 16, 14, 12, 11, 11];
const BODY_SIZE = 11;
const LINK_COLOUR = "#1d4ed8";

/** Renders Markdown to a real PDF (standard fonts, text selectable and extractable). */
export function renderPdf(req: DocumentRequest): Promise<Buffer> {
  const template = TEMPLATES[req.template];
  const doc = new PDFDocument({
    size: "A4",
    margin: 64,
    bufferPages: template.pageNumbers,
    info: { Title: req.title, Creator: "Unified API Gateway", CreationDate: req.date },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  writeTitle(doc, req);
  for (const block of markdownBlocks(req.content)) writeBlock(doc, block);

  if (template.pageNumbers) {
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      // Text below the bottom margin would start a new page; the footer lives there on purpose.
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc.font("Helvetica").fontSize(9).fillColor("#666666");
      doc.text(`Page ${i + 1} of ${range.count}`, 64, doc.page.height - 48, {
        width: doc.page.width - 128,
        align: "center",
        lineBreak: false,
      });
      doc.page.margins.bottom = bottom;
    }
  }
  doc.end();
  return done;
}

function writeTitle(doc: Doc, req: DocumentRequest) {
  const template = TEMPLATES[req.template];
  if (template.titleStyle === "subject") {
    doc.font("Helvetica").fontSize(BODY_SIZE).fillColor("black").text(formatDate(req.date), { align: "right" });
    doc.moveDown(1.5);
    doc.font("Helvetica-Bold").text(`Re: ${req.title}`);
    doc.moveDown();
    return;
  }
  doc
    .font("Helvetica-Bold")
    .fontSize(template.titleStyle === "cover" ? 26 : 22)
    .fillColor("black")
    .text(req.title);
  if (template.dated) {
    doc
      .font("Helvetica")
      .fontSize(BODY_SIZE)
      .fillColor("#555555")
      .text(`Report — ${formatDate(req.date)}`);
    rule(doc);
  }
  doc.moveDown();
}

function writeBlock(doc: Doc, block: Block) {
  const left = doc.page.margins.left;
  switch (block.kind) {
    case "heading":
      doc.moveDown(0.5);
      writeSpans(doc, block.spans, { size: HEADING_SIZES[block.level] ?? BODY_SIZE, bold: true, x: left });
      doc.moveDown(0.3);
      break;
    case "paragraph":
      writeSpans(doc, block.spans, { x: left });
      doc.moveDown(0.6);
      break;
    case "quote":
      writeSpans(doc, block.spans, { x: left + 20, italic: true, colour: "#444444" });
      doc.moveDown(0.6);
      break;
    case "list":
      for (const item of block.items) {
        const indent = left + 14 * (item.depth + 1);
        const marker = item.ordered ? `${item.index}.` : "•";
        const y = doc.y;
        doc
          .font("Helvetica")
          .fontSize(BODY_SIZE)
          .fillColor("black")
          .text(marker, indent - 12, y, { width: 14, lineBreak: false });
        writeSpans(doc, item.spans, { x: indent + 4, y });
      }
      doc.moveDown(0.6);
      break;
    case "code": {
      const width = doc.page.width - doc.page.margins.right - (left + 12);
      doc.font("Courier").fontSize(9.5).fillColor("#111111");
      doc.text(fitted(doc, block.text, width), left + 12, doc.y, { lineGap: 1, width });
      doc.moveDown(0.6);
      break;
    }
    case "table":
      writeTable(doc, block.header, block.rows);
      doc.moveDown(0.6);
      break;
    case "rule":
      rule(doc);
      break;
  }
}

type SpanOptions = { x: number; y?: number; size?: number; bold?: boolean; italic?: boolean; colour?: string };

function writeSpans(doc: Doc, spans: Span[], o: SpanOptions) {
  const runs = spans.length ? spans : [{ text: "" }];
  const width = doc.page.width - doc.page.margins.right - o.x;
  runs.forEach((span, i) => {
    doc
      .font(fontFor(span, o))
      .fontSize(o.size ?? BODY_SIZE)
      .fillColor(span.link ? LINK_COLOUR : (o.colour ?? "black"));
    const options = {
      continued: i < runs.length - 1,
      link: span.link ?? null,
      underline: Boolean(span.link),
      strike: Boolean(span.strike),
      width,
    };
    // Pieces end in a space where they can, not a line break: pdfkit starts a line after a break inside
    // continued text where the previous span ended, not at the margin.
    const text = fitted(doc, span.text, width, " ");
    if (i === 0) doc.text(text, o.x, o.y ?? doc.y, options);
    else doc.text(text, options);
  });
}

/** The text with its over-long words cut to the width, measured in the font and size already set. */
const fitted = (doc: Doc, text: string, width: number, soft?: string) =>
  breakLongWords(text, width, (c) => doc.widthOfString(c), soft);

function fontFor(span: Span, o: SpanOptions): string {
  if (span.code) return "Courier";
  const bold = span.bold || o.bold;
  const italic = span.italic || o.italic;
  return bold && italic
    ? "Helvetica-BoldOblique"
    : bold
      ? "Helvetica-Bold"
      : italic
        ? "Helvetica-Oblique"
        : "Helvetica";
}

function writeTable(doc: Doc, header: Span[][], rows: Span[][][]) {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const columns = Math.max(header.length, ...rows.map((r) => r.length), 1);
  const cell = width / columns;
  const pad = 4;
  const drawRow = (cells: Span[][], bold: boolean) => {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(10);
    const texts = Array.from({ length: columns }, (_, i) => fitted(doc, plainText(cells[i] ?? []), cell - 2 * pad));
    const height = Math.max(...texts.map((t) => doc.heightOfString(t || " ", { width: cell - 2 * pad }))) + 2 * pad;
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const y = doc.y;
    texts.forEach((t, i) => {
      doc
        .rect(left + i * cell, y, cell, height)
        .strokeColor("#999999")
        .lineWidth(0.5)
        .stroke();
      doc.fillColor("black").text(t, left + i * cell + pad, y + pad, { width: cell - 2 * pad });
    });
    doc.x = left;
    doc.y = y + height;
  };
  drawRow(header, true);
  for (const row of rows) drawRow(row, false);
}

function rule(doc: Doc) {
  const y = doc.y + 4;
  doc
    .moveTo(doc.page.margins.left, y)
    .lineTo(doc.page.width - doc.page.margins.right, y)
    .strokeColor("#cccccc")
    .lineWidth(1)
    .stroke();
  doc.y = y + 8;
  doc.x = doc.page.margins.left;
}
