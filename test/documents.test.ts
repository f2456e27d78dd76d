import { XMLValidator } from "fast-xml-parser";
import JSZip from "jszip";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { listen, type Listening } from "./support/listen.ts";
import { useGateway } from "./support/use-gateway.ts";

const CONTENT = `# Findings

Some **bold**, some *italic*, \`inline code\` and [a link](https://example.com/report).

## Steps

1. Measure the baseline
2. Change one thing
   - nested detail
3. Measure again

| Metric | Before | After |
| --- | --- | --- |
| p99 | 30 ms | 12 ms |

\`\`\`
const answer = 42;
\`\`\`

> Quoted insight.
`;

async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes.slice(0))), { mergePages: true });
  return text;
}

async function pdfPages(bytes: ArrayBuffer): Promise<number> {
  return (await getDocumentProxy(new Uint8Array(bytes.slice(0)))).numPages;
}

describe("documents", () => {
  const t = useGateway();
  const generate = (body: unknown) => t.post("/v1/documents/generate", body);

  it("lists formats and templates", async () => {
    const res = await t.gw.request("/v1/documents/formats", { headers: { "X-API-Key": t.key } });
    const body = await res.json();
    expect(body.formats).toEqual(["pdf", "docx", "markdown"]);
    expect(Object.keys(body.templates)).toEqual(["default", "report", "letter"]);
  });

  it("renders a real PDF whose text extracts back, named after the title", async () => {
    const res = await generate({ title: "Quarterly Review: Q3", content: CONTENT });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Quarterly-Review-Q3\.pdf"; filename\*=UTF-8''Quarterly%20Review%3A%20Q3\.pdf$/,
    );
    const bytes = await res.arrayBuffer();
    expect(Buffer.from(bytes).subarray(0, 5).toString()).toBe("%PDF-");
    expect(Number(res.headers.get("content-length"))).toBe(bytes.byteLength);
    const text = await pdfText(bytes);
    for (const expected of [
      "Quarterly Review: Q3",
      "Findings",
      "Steps",
      "Measure the baseline",
      "nested detail",
      "Metric",
      "30 ms",
      "const answer = 42;",
      "Quoted insight.",
      "a link",
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it("numbers the pages of a report and dates a letter", async () => {
    const reportBytes = await (await generate({ title: "R", content: "Body text", template: "report" })).arrayBuffer();
    expect(await pdfPages(reportBytes)).toBe(1);
    const report = await pdfText(reportBytes);
    expect(report).toMatch(/Report — \d{1,2} \w+ \d{4}/);
    expect(report).toContain("Page 1 of 1");
    const letter = await pdfText(
      await (await generate({ title: "Your order", content: "Dear customer", template: "letter" })).arrayBuffer(),
    );
    expect(letter).toContain("Re: Your order");
    const long = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} of a long report.`).join("\n\n");
    const longBytes = await (await generate({ title: "Long", content: long, template: "report" })).arrayBuffer();
    const pages = await pdfPages(longBytes);
    expect(pages).toBeGreaterThan(1);
    expect(await pdfText(longBytes)).toContain(`Page ${pages} of ${pages}`);
  });

  it("renders a DOCX that unzips to valid XML with real headings, lists and a table", async () => {
    const res = await generate({ title: "Quarterly Review", content: CONTENT, format: "docx", template: "report" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    expect(res.headers.get("content-disposition")).toContain('filename="Quarterly-Review.docx"');
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    const xml = await zip.file("word/document.xml")!.async("string");
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('w:val="Title"');
    expect(xml).toContain('w:val="Heading1"');
    expect(xml).toContain("Findings");
    expect(xml).toContain("<w:tbl>");
    expect(xml).toContain("<w:numPr>");
    expect(xml).toContain("Measure the baseline");
    expect(Object.keys(zip.files).some((f) => f.startsWith("word/footer"))).toBe(true);
  });

  it("returns Markdown under the template's title block", async () => {
    const res = await generate({ title: "Notes", content: "- a\n- b", format: "markdown" });
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await res.text()).toBe("# Notes\n\n- a\n- b\n");
  });

  it("refuses unknown templates and formats, and missing fields, with 400", async () => {
    for (const body of [
      { title: "T", content: "x", template: "memo" },
      { title: "T", content: "x", format: "odt" },
      { content: "x" },
      { title: "T" },
      { title: "   ", content: "x" },
    ]) {
      const res = await generate(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error).toMatch(/invalid request/);
    }
  });
});

describe("a DOCX whose Markdown keeps marked busy", () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { WORKER_JOB_TIMEOUT_MS: "5000" } });
    ({ key } = await gw.key());
  });
  afterAll(() => gw?.close());

  it("is rendered off the event loop: /health answers meanwhile, the job stops at its time limit with 422", async () => {
    let ended = false;
    const pending = gw
      .request("/v1/documents/generate", {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": key },
        // 80 kB of `_a**`: half a minute or more of marked on one core (its emphasis rules are quadratic).
        body: JSON.stringify({ title: "Busy", content: "_a**".repeat(20_000), format: "docx" }),
      })
      .finally(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Shown by order, not by a stopwatch: on the event loop the render would have ended before /health.
    expect((await gw.request("/health")).status).toBe(200);
    expect(ended).toBe(false);
    const res = await pending;
    expect(res.status).toBe(422);
    expect((await res.json()).error).toBe("document took longer than the 5 s a job may run, so it was stopped");
  }, 60_000);
});

describe("one unbroken word as long as the content may be", () => {
  const t = useGateway();
  let server: Listening;

  /** Over a real socket: the status, the body and how long the whole answer took. */
  const generate = async (body: unknown) => {
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/documents/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": t.key },
      body: JSON.stringify(body),
    });
    const bytes = await res.arrayBuffer();
    return { status: res.status, bytes, seconds: (performance.now() - started) / 1000 };
  };

  beforeAll(async () => {
    server = await listen(t.gw.app.fetch);
    // A thread's start and its first import of pdfkit and docx are not what is timed here.
    for (const format of ["pdf", "docx"])
      expect((await generate({ title: "Warm", content: "x", format })).status).toBe(200);
  });
  afterAll(() => server?.close());

  // pdfkit alone took ~30 s for 100 kB of one word (it is quadratic in a word's length); laid out in
  // linear time it is well under a second. The bound only tells an answer from a hang on a busy machine.
  const BOUND_S = 10;
  const countA = (text: string) => text.split("A").length - 1;

  it.each(["pdf", "docx"])("100 kB of `A` in %s is rendered whole, in time", async (format) => {
    const { status, bytes, seconds } = await generate({ title: "Long word", content: "A".repeat(100_000), format });
    expect(status).toBe(200);
    expect(seconds).toBeLessThan(BOUND_S);
    if (format === "pdf") {
      expect(await pdfPages(bytes)).toBeGreaterThan(1);
      expect(countA(await pdfText(bytes))).toBe(100_000);
    } else {
      const xml = await (await JSZip.loadAsync(bytes)).file("word/document.xml")!.async("string");
      expect(countA(xml)).toBe(100_000);
    }
  });

  it("100 kB of `[`, which no space after it lets a line break, is rendered in time", async () => {
    // Unicode line breaking glues an opening bracket to a space after it: pieces of this word are cut
    // with line breaks, not spaces, or pdfkit would see one 100 kB word again.
    const { status, bytes, seconds } = await generate({ title: "Brackets", content: "[".repeat(100_000) });
    expect(status).toBe(200);
    expect(seconds).toBeLessThan(BOUND_S);
    expect((await pdfText(bytes)).split("[").length - 1).toBe(100_000);
  });

  it("the most content accepted, 500 kB of one word in a paragraph, a link, a table cell and code, renders in time", async () => {
    const word = "W".repeat(124_000);
    const content = `${word}\n\n[${word}](https://example.com/)\n\n| h |\n| - |\n| ${word} |\n\n\`\`\`\n${word}\n\`\`\`\n`;
    expect(content.length).toBeLessThanOrEqual(500_000);
    const { status, bytes, seconds } = await generate({ title: "Long words", content, template: "report" });
    expect(status).toBe(200);
    expect(seconds).toBeLessThan(BOUND_S);
    expect(await pdfText(bytes)).toContain("Page 1 of");
  });

  it.each(["pdf", "docx"])("1 MB of `A` in %s is refused at once with 400", async (format) => {
    const { status, bytes, seconds } = await generate({ title: "Long word", content: "A".repeat(1_000_000), format });
    expect(status).toBe(400);
    expect(JSON.parse(Buffer.from(bytes).toString()).error).toMatch(/invalid request/);
    expect(seconds).toBeLessThan(BOUND_S);
  });
});
