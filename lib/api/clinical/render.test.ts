import { describe, expect, it } from "vitest";
import { renderConditionHtml } from "./render.ts";

describe("renderConditionHtml", () => {
  it("renders headings, lists and emphasis", () => {
    expect(renderConditionHtml("# Title\n\n## Part\n\n- **one**\n- two")).toBe(
      "<h1>Title</h1>\n<h2>Part</h2>\n<ul>\n<li><strong>one</strong></li>\n<li>two</li>\n</ul>",
    );
  });
  it("removes scripts, event handlers and unsafe links", () => {
    const html = renderConditionHtml(
      'Hi <script>alert(1)</script><img src=x onerror="alert(1)"> [x](javascript:alert(1)) [ok](https://who.int)',
    );
    expect(html).not.toMatch(/script|onerror|<img|javascript:/);
    expect(html).toContain('<a href="https://who.int">ok</a>');
  });
});
