import zlib from "node:zlib";

/**
 * A one-page PDF written by hand, as small generators write them: a catalog, one page and a font,
 * no Info dictionary and no XMP packet. With `repeat`, the page shows the text that many times from one
 * deflated content stream: a few hundred kB of file that pdf.js must turn into millions of text items.
 */
export function minimalPdf(text: string, repeat = 1): Buffer {
  const ops = `BT /F1 24 Tf 72 720 Td ${`(${text}) Tj `.repeat(repeat)}ET`;
  const content = repeat > 1 ? zlib.deflateSync(ops, { level: 9 }) : Buffer.from(ops, "latin1");
  const filter = repeat > 1 ? " /Filter /FlateDecode" : "";
  const objects = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length}${filter} >>\nstream\n`),
      content,
      Buffer.from("\nendstream"),
    ]),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
  ];
  const parts = [Buffer.from("%PDF-1.4\n")];
  let length = parts[0]!.length;
  const offsets = objects.map((body, i) => {
    const at = length;
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    parts.push(object);
    length += object.length;
    return at;
  });
  const xref = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}`));
  parts.push(Buffer.from(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return Buffer.concat(parts);
}
