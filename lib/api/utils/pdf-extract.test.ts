import { describe, expect, it } from "vitest";
import { pdfMetadata } from "./pdf-extract.ts";

describe("pdfMetadata", () => {
  it("gives null for every field the file lacks, whatever pdf.js hands back for a missing XMP packet", () => {
    for (const xmp of [null, undefined, {}]) {
      expect(pdfMetadata({ PDFFormatVersion: "1.4" }, xmp, 2)).toMatchObject({
        title: null,
        author: null,
        page_count: 2,
        pdf_version: "1.4",
      });
    }
  });

  it("prefers the Info dictionary and falls back to the XMP title", () => {
    const xmp = { get: (name: string) => (name === "dc:title" ? "From XMP" : null) };
    expect(pdfMetadata({ Author: "Ada" }, xmp, 1)).toMatchObject({ title: "From XMP", author: "Ada" });
    expect(pdfMetadata({ Title: "From Info" }, xmp, 1).title).toBe("From Info");
  });
});
