/**
 * What the utilities accept — format lists and size caps — apart from the libraries that do the work
 * (sharp, pdf.js, citation-js, the converters), so declaring and validating a route loads none of them.
 */

export const RESIZE_FORMATS = ["png", "jpeg", "webp"] as const;
export const CONVERT_FORMATS = ["png", "jpeg", "webp", "gif", "bmp"] as const;

/** Larger inputs are refused before decoding: a small file can declare an enormous canvas. */
export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_OUTPUT_SIDE = 10_000;
/** 4096 × 4096: a solid-colour PNG of a few kB must not become hundreds of MB of output (BMP is 3 bytes a pixel). */
export const MAX_OUTPUT_PIXELS = 16_777_216;

export const DATA_FORMATS = ["json", "yaml", "toml", "xml", "csv"] as const;
export const TEXT_FORMATS = ["markdown", "html", "plain"] as const;

/** Pages read per request: pdf.js works page by page, and one request must not parse thousands of them. */
export const MAX_PDF_PAGES = 100;

export const CITATION_STYLES = ["apa", "mla", "chicago", "harvard", "bibtex"] as const;
