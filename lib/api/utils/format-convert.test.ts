import { describe, expect, it } from "vitest";
import { convertFormat, MAX_HTML_DEPTH } from "./format-convert.ts";

const md = "# Title\n\nSome **bold** and [a link](https://example.com).\n\n- one\n- two\n";

describe("convertFormat", () => {
  it("renders Markdown to HTML", () => {
    const html = convertFormat(md, "markdown", "html");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<a href="https://example.com">a link</a>');
    expect(html).toContain("<li>one</li>");
  });

  it("turns HTML back into Markdown", () => {
    const back = convertFormat(convertFormat(md, "markdown", "html"), "html", "markdown");
    expect(back).toContain("# Title");
    expect(back).toContain("**bold**");
    expect(back).toContain("[a link](https://example.com)");
    expect(back).toMatch(/^-\s+one$/m);
  });

  it("strips scripts, handlers and javascript: links from every HTML result", () => {
    const hostile =
      '<p onclick="steal()">hi<script>alert(1)</script></p><a href="javascript:alert(1)">x</a><img src=x onerror=alert(1)>';
    const html = convertFormat(hostile, "html", "html");
    expect(html).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(convertFormat("<b>[x](javascript:alert(1))</b>", "markdown", "html")).not.toMatch(/javascript:/i);
    expect(convertFormat("hi <script>alert(1)</script>", "markdown", "html")).not.toContain("<script");
  });

  it("produces plain text with paragraph breaks and decoded entities", () => {
    expect(convertFormat("<h1>A &amp; B</h1><p>one</p><p>two<br>three</p>", "html", "plain")).toBe(
      "A & B\n\none\n\ntwo\nthree",
    );
    expect(convertFormat(md, "markdown", "plain")).toContain("Some bold and a link.");
  });

  it("wraps plain text in escaped paragraphs", () => {
    expect(convertFormat("a < b\n\nc", "plain", "html")).toBe("<p>a &lt; b</p>\n<p>c</p>");
  });

  it("refuses HTML nested deeper than MAX_HTML_DEPTH before turndown, counting only open elements", () => {
    const nested = (n: number) => "<div>".repeat(n) + "x" + "</div>".repeat(n);
    expect(convertFormat(nested(MAX_HTML_DEPTH), "html", "markdown")).toBe("x");
    expect(() => convertFormat(nested(MAX_HTML_DEPTH + 1), "html", "markdown")).toThrow(
      "content is nested too deeply to convert",
    );
    expect(convertFormat(`<p>${"a<br>".repeat(2000)}</p>`, "html", "markdown")).toMatch(/^a {2}\na/);
    expect(convertFormat("<p>a</p>".repeat(2000), "html", "markdown")).toMatch(/^a\n\na/);
  });

  it("turns Markdown that overflows marked's stack into a 400", () => {
    expect(() => convertFormat("> ".repeat(49_000) + "x", "markdown", "html")).toThrow(
      "content is nested too deeply to convert",
    );
  });
});
