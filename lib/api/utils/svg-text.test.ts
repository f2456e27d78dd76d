import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { checkSvgText, svgTextLengths } from "./svg-text.ts";

const svg = (body: string, doctype = "") =>
  `<?xml version="1.0"?>${doctype}<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20">${body}</svg>`;

describe("svgTextLengths", () => {
  it("counts each text element's character data, its tspans and CDATA included, and nothing else", () => {
    expect(
      svgTextLengths(
        svg(
          `<title>ignored title</title><style>text{fill:red}</style><text x="1">ab<tspan dy="2">cd</tspan><![CDATA[e</text>f]]></text>` +
            `<!-- <text>hidden</text> --><svg:text>xyz</svg:text><text/><text x="0"/>`,
        ),
      ),
    ).toEqual([13, 3]);
  });

  it("expands the entities the document declares, nested ones too, and counts a character reference as one", () => {
    const doctype = `<!DOCTYPE svg [<!ENTITY a "${"A".repeat(10)}"><!ENTITY b "&a;&a;-&#65;">]>`;
    expect(svgTextLengths(svg("<text>&b;&b;&amp;&undeclared;</text>", doctype))).toEqual([45]);
    const laughs = `<!DOCTYPE svg [<!ENTITY l0 "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("")}]>`;
    expect(svgTextLengths(svg("<text>&l9;</text>", laughs))[0]).toBe(3e9);
    expect(svgTextLengths(svg("<text>&c;</text>", `<!DOCTYPE svg [<!ENTITY c "&c;x">]>`))).toEqual([1]);
  });

  it("reads text broken off anywhere in linear time", () => {
    for (const broken of [
      "<a".repeat(200_000),
      "<!DOCTYPE[".repeat(100_000),
      `<${"a".repeat(1_000_000)}`,
      "&a".repeat(200_000),
    ]) {
      const started = performance.now();
      svgTextLengths(`<text>${broken}`);
      // Linear is milliseconds; quadratic in a megabyte is hours. The bound only tells the two apart.
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });
});

describe("checkSvgText", () => {
  it("lets through text of up to 4,000 characters in one element, and many short ones", () => {
    expect(() => checkSvgText(Buffer.from(svg(`<text>${"A".repeat(4_000)}</text>`)))).not.toThrow();
    const labels = Array.from({ length: 1_000 }, (_, i) => `<text y="${i}">label ${i}</text>`).join("");
    expect(() => checkSvgText(Buffer.from(svg(labels)))).not.toThrow();
  });

  it("refuses with 413 one long text, many long ones, or the same compressed", () => {
    const long = svg(`<text>${"A".repeat(100_000)}</text>`);
    for (const input of [
      Buffer.from(long),
      zlib.gzipSync(long),
      Buffer.from(svg(`<text>${"A".repeat(1_100)}</text>`.repeat(16))),
    ]) {
      expect(() => checkSvgText(input)).toThrow(expect.objectContaining({ status: 413 }));
    }
    expect(() => checkSvgText(Buffer.from(long))).toThrow(
      "image is an SVG with more text than the server lays out: 1 text elements, the longest of 100,000 characters (at most 4,000 in one, fewer when several are long)",
    );
  });
});
