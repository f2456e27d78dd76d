import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("Markdown", () => {
  it("shows headings, emphasis, lists, code and tables as elements", () => {
    const out = html(
      "### synth-1\n\nSome **bold** and *soft* `code`.\n\n1. one\n2. two\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    );
    expect(out).toContain('<p class="mt-3 font-semibold first:mt-0">synth-1</p>');
    expect(out).not.toContain("###");
    expect(out).toContain("<strong>bold</strong>");
    expect(out).toContain("<em>soft</em>");
    expect(out).toMatch(/<code[^>]*>code<\/code>/);
    expect(out).toMatch(/<ol[^>]*><li><span>one<\/span><\/li><li><span>two<\/span><\/li><\/ol>/);
    expect(out).toMatch(/<th[^>]*>a<\/th>/);
  });

  it("never lets an answer's markup, scripts or links to other schemes through, and loads no image", () => {
    const out = html(
      'Hi <b onclick="x()">there</b> [click](javascript:alert(1)) [ok](https://example.test/a) ![pixel](https://t.test/p.png)\n\n<script>alert(1)</script>',
    );
    expect(out).not.toMatch(/<b |<script|<img|javascript:/);
    expect(out).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(out).toContain("&lt;b onclick=&quot;x()&quot;&gt;");
    expect(out).toContain('<a href="https://example.test/a" target="_blank" rel="noopener noreferrer nofollow"');
    expect(out).toContain("<span>click</span>");
    expect(out).toContain("[image: pixel]");
  });

  it("keeps text as written, entities included, and wraps long words", () => {
    const out = html("Tom &amp; Jerry & co " + "x".repeat(400));
    expect(out).toContain("Tom &amp;amp; Jerry &amp; co");
    expect(out).toContain("[overflow-wrap:anywhere]");
  });
});
