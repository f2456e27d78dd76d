import { getDocumentProxy, getMeta } from "unpdf";
import { GatewayError } from "../../errors.ts";
import { MAX_PDF_PAGES } from "./formats.ts";

export type PdfExtraction = {
  text: string;
  pages: Array<{ page: number; text: string }>;
  page_count: number;
  metadata?: Record<string, unknown>;
};

/** Text per page (1-indexed selection) and, on request, the document's metadata. */
export async function extractPdf(
  data: Buffer,
  pages: number[] | undefined,
  includeMetadata: boolean,
): Promise<PdfExtraction> {
  if (data.subarray(0, 5).toString("latin1") !== "%PDF-") throw new GatewayError(400, "pdf is not a PDF document");
  let doc;
  try {
    doc = await getDocumentProxy(new Uint8Array(data), { isEvalSupported: false, stopAtErrors: true });
  } catch (err) {
    const name = (err as Error).name;
    if (name === "PasswordException") throw new GatewayError(400, "pdf is encrypted: remove the password first");
    throw new GatewayError(400, `pdf could not be read: ${(err as Error).message}`);
  }
  try {
    const count = doc.numPages;
    const wanted = pages ?? Array.from({ length: count }, (_, i) => i + 1);
    const outside = wanted.filter((p) => p < 1 || p > count);
    if (outside.length)
      throw new GatewayError(400, `pages out of range: ${outside.join(", ")} (the document has ${count})`);
    if (wanted.length > MAX_PDF_PAGES) {
      throw new GatewayError(
        413,
        `pdf has ${count} pages; at most ${MAX_PDF_PAGES} are read per request: choose them with pages`,
      );
    }
    const selected: PdfExtraction["pages"] = [];
    for (const page of wanted) selected.push({ page, text: (await pageText(doc, page)).trim() });
    const out: PdfExtraction = { text: selected.map((p) => p.text).join("\n\n"), pages: selected, page_count: count };
    if (includeMetadata) {
      const { info, metadata } = await getMeta(doc);
      out.metadata = pdfMetadata(info, metadata, count);
    }
    return out;
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    throw new GatewayError(400, `pdf could not be read: ${(err as Error).message}`);
  } finally {
    await doc.destroy();
  }
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** One page's text as unpdf's extractText joins it, without parsing the pages nobody asked for. */
async function pageText(doc: PdfDocument, pageNumber: number): Promise<string> {
  const content = await (await doc.getPage(pageNumber)).getTextContent();
  return content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
}

/** An XMP packet as pdf.js exposes it; a file without one yields null or an empty object instead. */
type Xmp = { get(name: string): unknown };

/** The metadata fields, each null when the file has no Info dictionary entry (or XMP value) for it. */
export function pdfMetadata(info: Record<string, unknown>, xmp: unknown, pageCount: number): Record<string, unknown> {
  const fromXmp = (name: string) =>
    typeof (xmp as Partial<Xmp> | null)?.get === "function" ? ((xmp as Xmp).get(name) ?? null) : null;
  return {
    title: info.Title ?? fromXmp("dc:title"),
    author: info.Author ?? null,
    subject: info.Subject ?? null,
    creator: info.Creator ?? null,
    producer: info.Producer ?? null,
    creation_date: info.CreationDate ?? null,
    modification_date: info.ModDate ?? null,
    page_count: pageCount,
    pdf_version: info.PDFFormatVersion ?? null,
  };
}
