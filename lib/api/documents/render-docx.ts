import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  Footer,
  HeadingLevel,
  LevelFormat,
  Packer,
  PageNumber,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ParagraphChild,
} from "docx";
import { markdownBlocks, type Block, type Span } from "./markdown-blocks.ts";
import { formatDate, TEMPLATES, type DocumentRequest } from "./templates.ts";

const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
];

/** Renders Markdown to a Word document with real headings, lists, tables and links. */
export async function renderDocx(req: DocumentRequest): Promise<Buffer> {
  const template = TEMPLATES[req.template];
  const children: Array<Paragraph | Table> = [
    ...titleParagraphs(req),
    ...markdownBlocks(req.content).flatMap(blockToDocx),
  ];
  const doc = new Document({
    title: req.title,
    creator: "Unified API Gateway",
    numbering: {
      config: [
        {
          reference: "ordered",
          levels: [0, 1, 2, 3].map((level) => ({
            level,
            format: LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            alignment: AlignmentType.START,
            style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
          })),
        },
      ],
    },
    sections: [
      {
        children,
        footers: template.pageNumbers
          ? {
              default: new Footer({
                children: [
                  new Paragraph({
                    alignment: AlignmentType.CENTER,
                    children: [
                      new TextRun({ children: ["Page ", PageNumber.CURRENT, " of ", PageNumber.TOTAL_PAGES] }),
                    ],
                  }),
                ],
              }),
            }
          : undefined,
      },
    ],
  });
  return Packer.toBuffer(doc);
}

function titleParagraphs(req: DocumentRequest): Paragraph[] {
  const template = TEMPLATES[req.template];
  if (template.titleStyle === "subject") {
    return [
      new Paragraph({ alignment: AlignmentType.RIGHT, children: [new TextRun(formatDate(req.date))] }),
      new Paragraph({
        spacing: { before: 240, after: 240 },
        children: [new TextRun({ text: `Re: ${req.title}`, bold: true })],
      }),
    ];
  }
  const title = new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(req.title)] });
  if (!template.dated) return [title];
  return [
    title,
    new Paragraph({
      border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "CCCCCC", space: 4 } },
      children: [new TextRun({ text: `Report — ${formatDate(req.date)}`, color: "555555" })],
    }),
  ];
}

function runs(spans: Span[]): ParagraphChild[] {
  return spans.map((s) => {
    const run = new TextRun({
      text: s.text,
      bold: s.bold,
      italics: s.italic,
      strike: s.strike,
      font: s.code ? "Courier New" : undefined,
      style: s.link ? "Hyperlink" : undefined,
      break: s.text === "\n" ? 1 : undefined,
    });
    return s.link ? new ExternalHyperlink({ link: s.link, children: [run] }) : run;
  });
}

function blockToDocx(block: Block): Array<Paragraph | Table> {
  switch (block.kind) {
    case "heading":
      return [new Paragraph({ heading: HEADINGS[block.level] ?? HeadingLevel.HEADING_6, children: runs(block.spans) })];
    case "paragraph":
      return [new Paragraph({ children: runs(block.spans) })];
    case "quote":
      return [
        new Paragraph({ indent: { left: 720 }, children: runs(block.spans.map((s) => ({ ...s, italic: true }))) }),
      ];
    case "list":
      return block.items.map((item) =>
        item.ordered
          ? new Paragraph({
              numbering: { reference: "ordered", level: Math.min(item.depth, 3) },
              children: runs(item.spans),
            })
          : new Paragraph({ bullet: { level: Math.min(item.depth, 3) }, children: runs(item.spans) }),
      );
    case "code":
      return block.text
        .split("\n")
        .map((line) => new Paragraph({ children: [new TextRun({ text: line, font: "Courier New", size: 19 })] }));
    case "table": {
      const row = (cells: Span[][], header: boolean) =>
        new TableRow({
          tableHeader: header,
          children: cells.map(
            (c) =>
              new TableCell({
                children: [new Paragraph({ children: runs(header ? c.map((s) => ({ ...s, bold: true })) : c) })],
              }),
          ),
        });
      return [
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: [row(block.header, true), ...block.rows.map((r) => row(r, false))],
        }),
      ];
    }
    case "rule":
      return [
        new Paragraph({
          border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "CCCCCC", space: 1 } },
          children: [],
        }),
      ];
  }
}
