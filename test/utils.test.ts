import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import YAML from "yaml";
import { minimalPdf } from "./support/minimal-pdf.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { useGateway } from "./support/use-gateway.ts";

/** A real AES-256 encrypted PDF, made once with qpdf (test/fixtures/README.md), so the tests need no qpdf. */
const ENCRYPTED_PDF = fs.readFileSync("test/fixtures/encrypted.pdf");

async function png(width: number, height: number): Promise<string> {
  const buf = await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
  return buf.toString("base64");
}

async function pdf(pages: string[], title = "Test document"): Promise<string> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setAuthor("Ada Lovelace");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) doc.addPage([300, 200]).drawText(text, { x: 20, y: 150, size: 14, font });
  return Buffer.from(await doc.save()).toString("base64");
}

describe("utilities over HTTP", () => {
  const t = useGateway();
  const { post } = t;

  describe("POST /v1/utils/convert", () => {
    it("converts JSON objects and text between formats", async () => {
      const res = await post("/v1/utils/convert", { data: { a: 1, b: ["x"] }, target_format: "yaml" });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(YAML.parse(body.result)).toEqual({ a: 1, b: ["x"] });
      expect(body).toMatchObject({ source_format: "json", target_format: "yaml" });
      const csv = await (
        await post("/v1/utils/convert", {
          data: "n,v\nx,1\n",
          source_format: "csv",
          target_format: "json",
          pretty: false,
        })
      ).json();
      expect(csv.result).toBe('[{"n":"x","v":1}]');
    });

    it("refuses data nested deeper than 100 levels with 400 naming the limit, for every target", async () => {
      // Written by hand: JSON.stringify itself overflows on 10,000 levels.
      const raw = (data: string, source: string, target: string) =>
        t.gw.request("/v1/utils/convert", {
          method: "POST",
          headers: { "content-type": "application/json", "X-API-Key": t.key },
          body: `{"data":${data},"source_format":"${source}","target_format":"${target}"}`,
        });
      const deep = "[".repeat(10_000) + "]".repeat(10_000);
      const inputs: Array<[string, string]> = [
        [deep, "json"],
        [JSON.stringify(deep), "json"],
        [JSON.stringify(deep), "yaml"],
        [JSON.stringify("<a>".repeat(10_000) + "</a>".repeat(10_000)), "xml"],
      ];
      for (const target of ["yaml", "xml", "json"]) {
        for (const [data, source] of inputs) {
          const res = await raw(data, source, target);
          expect(res.status, `${source} ${data.slice(0, 5)} → ${target}`).toBe(400);
          expect((await res.json()).error).toBe("data is nested too deeply: at most 100 levels of arrays and objects");
        }
      }
      expect((await raw("[".repeat(100) + "]".repeat(100), "json", "xml")).status).toBe(200);
    });

    it("needs a key, and refuses impossible conversions and unknown formats with 400", async () => {
      expect((await post("/v1/utils/convert", { data: {} }, false)).status).toBe(401);
      const nested = await post("/v1/utils/convert", { data: [{ a: { b: 1 } }], target_format: "csv" });
      expect(nested.status).toBe(400);
      expect((await nested.json()).error).toMatch(/nested/);
      const unknown = await post("/v1/utils/convert", { data: "x", target_format: "ini" });
      expect(unknown.status).toBe(400);
      expect((await unknown.json()).error).toMatch(/target_format/);
      expect((await post("/v1/utils/convert", { data: 42 })).status).toBe(400);
    });
  });

  describe("POST /v1/utils/format/convert (no key)", () => {
    it("renders sanitised HTML from Markdown", async () => {
      const res = await post(
        "/v1/utils/format/convert",
        { content: "# Hi\n<script>x()</script>", from_format: "markdown", to_format: "html" },
        false,
      );
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.result).toContain("<h1>Hi</h1>");
      expect(body.result).not.toContain("<script");
    });

    it("validates the formats", async () => {
      const res = await post("/v1/utils/format/convert", { content: "x", to_format: "rtf" }, false);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/to_format/);
    });
  });

  describe("POST /v1/utils/text/keywords (no key)", () => {
    it("returns keyword, score and count, best first", async () => {
      const text =
        "Solar panels convert sunlight. Solar panels need cleaning. Batteries store energy from solar panels.";
      const res = await post("/v1/utils/text/keywords", { text, top_k: 3 }, false);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.count).toBe(3);
      expect(body.keywords[0]).toEqual({
        keyword: expect.stringContaining("solar panels"),
        score: 1,
        count: expect.any(Number),
      });
    });

    it("refuses a wrong type or an out-of-range top_k", async () => {
      expect((await post("/v1/utils/text/keywords", { text: 5 }, false)).status).toBe(400);
      expect((await post("/v1/utils/text/keywords", { text: "x", top_k: 0 }, false)).status).toBe(400);
    });

    it("takes at most 100,000 characters, here and in format conversion", async () => {
      const long = "word ".repeat(20_001);
      const keywords = await post("/v1/utils/text/keywords", { text: long }, false);
      expect(keywords.status).toBe(400);
      expect((await keywords.json()).error).toMatch(/text is limited to 100,000 characters/);
      const format = await post("/v1/utils/format/convert", { content: long }, false);
      expect(format.status).toBe(400);
      expect((await format.json()).error).toMatch(/content is limited to 100,000 characters/);
    });
  });

  describe("POST /v1/utils/citations/format (no key)", () => {
    it("formats Form A and Form B", async () => {
      const a = await post(
        "/v1/utils/citations/format",
        { source: { title: "Weaving the Web", author: "Tim Berners-Lee", year: 1999 }, style: "harvard" },
        false,
      );
      expect(a.status).toBe(200);
      expect((await a.json()).citation).toMatch(/^Berners-Lee, T\. \(1999\) Weaving the Web/);
      const b = await post(
        "/v1/utils/citations/format",
        {
          citation: {
            title: "Deep learning",
            authors: ["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"],
            year: 2015,
            journal: "Nature",
            doi: "10.1038/nature14539",
          },
          style: "bibtex",
        },
        false,
      );
      const body = await b.json();
      expect(body.style).toBe("bibtex");
      expect(body.citation).toMatch(/@article\{LeCun2015/);
      expect(body.citation).toContain("Bengio, Yoshua");
    });

    it("defaults to APA and refuses an unknown style or a missing source", async () => {
      const res = await post(
        "/v1/utils/citations/format",
        { citation: { title: "T", authors: ["A B"], year: 2000 } },
        false,
      );
      expect((await res.json()).style).toBe("apa");
      expect((await post("/v1/utils/citations/format", { source: { title: "T" }, style: "ieee" }, false)).status).toBe(
        400,
      );
      const neither = await post("/v1/utils/citations/format", { style: "apa" }, false);
      expect(neither.status).toBe(400);
      expect((await neither.json()).error).toMatch(/source \(Form A\) or citation \(Form B\)/);
    });
  });

  describe("images", () => {
    it("resizes keeping the aspect ratio, or filling exactly", async () => {
      const image = await png(400, 200);
      const kept = await (await post("/v1/utils/images/resize", { image, width: 100 })).json();
      expect(kept).toMatchObject({ format: "png", width: 100, height: 50 });
      const meta = await sharp(Buffer.from(kept.image, "base64")).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", 100, 50]);
      expect(kept.bytes).toBe(Buffer.from(kept.image, "base64").length);

      const filled = await (
        await post("/v1/utils/images/resize", { image, width: 64, height: 64, maintain_aspect: false, format: "webp" })
      ).json();
      expect(filled).toMatchObject({ format: "webp", width: 64, height: 64 });
    });

    it("converts to every format, BMP included", async () => {
      const image = await png(30, 20);
      for (const format of ["png", "jpeg", "webp", "gif", "bmp"]) {
        const res = await post("/v1/utils/images/convert", { image, format, quality: 80 });
        expect(res.status, format).toBe(200);
        const body = await res.json();
        const bytes = Buffer.from(body.image, "base64");
        expect(body).toMatchObject({ format, width: 30, height: 20 });
        if (format === "bmp") {
          expect(bytes.subarray(0, 2).toString()).toBe("BM");
          expect(bytes.readInt32LE(18)).toBe(30);
          // The first stored row is the bottom one, pixels as B, G, R: the PNG's red (200, 30, 30).
          expect([...bytes.subarray(54, 57)]).toEqual([30, 30, 200]);
        } else {
          expect((await sharp(bytes).metadata()).format).toBe(format === "jpeg" ? "jpeg" : format);
        }
      }
    });

    it("answers bad input with 400 or 413, never a crash", async () => {
      const cases: Array<[unknown, number, RegExp]> = [
        [{ image: "!!!not base64!!!", width: 10 }, 400, /base64/],
        [
          { image: Buffer.from("hello world, not an image").toString("base64"), width: 10 },
          400,
          /not a supported image/,
        ],
        [{ image: await png(10, 10) }, 400, /width, height/],
        [{ image: await png(10, 10), width: 0 }, 400, /width/],
        [{ image: await png(10, 10), width: 99_999 }, 400, /width/],
        [
          {
            image: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="90000" height="90000"></svg>').toString(
              "base64",
            ),
            width: 10,
          },
          413,
          /too large/,
        ],
      ];
      for (const [body, status, message] of cases) {
        const res = await post("/v1/utils/images/resize", body);
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status);
        expect((await res.json()).error).toMatch(message);
      }
      const truncated = (await png(50, 50)).slice(0, 60);
      expect((await post("/v1/utils/images/convert", { image: truncated, format: "jpeg" })).status).toBe(400);
    });
  });

  describe("raw bodies and binary answers", () => {
    /** POST the bytes themselves, options in the query string (headers override the defaults). */
    const raw = (path: string, body: Uint8Array | string, headers: Record<string, string> = {}) =>
      t.gw.request(path, {
        method: "POST",
        headers: { "content-type": "image/png", "X-API-Key": t.key, ...headers },
        body: typeof body === "string" ? body : new Uint8Array(body),
      });
    const pngBytes = async (width: number, height: number) => Buffer.from(await png(width, height), "base64");

    it("takes a raw PNG with the options in the query, and answers JSON as the JSON form does", async () => {
      const res = await raw("/v1/utils/images/resize?width=100", await pngBytes(400, 200));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.headers.get("vary")).toBe("Accept");
      const body = await res.json();
      expect(body).toMatchObject({ format: "png", width: 100, height: 50 });
      expect(body.bytes).toBe(Buffer.from(body.image, "base64").length);

      const filled = await raw(
        "/v1/utils/images/resize?width=64&height=64&maintain_aspect=false&format=jpeg",
        await pngBytes(400, 200),
        { "content-type": "image/png; charset=binary" },
      );
      expect(await filled.json()).toMatchObject({ format: "jpeg", width: 64, height: 64 });
      const converted = await raw("/v1/utils/images/convert?format=gif&quality=", await pngBytes(30, 20));
      expect(await converted.json()).toMatchObject({ format: "gif", width: 30, height: 20 });
    });

    it("answers the bytes when Accept prefers an image type: webp chosen by Accept, typed, nosniff, described in headers, metered", async () => {
      const res = await raw("/v1/utils/images/resize?width=100", await pngBytes(400, 200), { accept: "image/webp" });
      expect(res.status).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF");
      expect(bytes.subarray(8, 12).toString("latin1")).toBe("WEBP");
      expect(
        Object.fromEntries(
          [...res.headers].filter(([name]) => !/^(x-request-id|x-ratelimit-.*|date|connection|keep-alive)$/.test(name)),
        ),
      ).toEqual({
        "content-type": "image/webp",
        "content-length": String(bytes.length),
        "content-disposition": 'inline; filename="resized.webp"',
        "x-content-type-options": "nosniff",
        "x-image-format": "webp",
        "x-image-width": "100",
        "x-image-height": "50",
        "x-image-bytes": String(bytes.length),
        vary: "Accept",
      });
      expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width: 100, height: 50 });

      await t.gw.rt.meter.flush();
      const [event] = await t.gw.rt.db.prisma.usageEvent.findMany({
        where: { requestId: res.headers.get("x-request-id")! },
      });
      expect(event).toMatchObject({ route: "/v1/utils/images/resize", status: 200, bytesOut: bytes.length });
    });

    it("answers the JSON form with bytes too when Accept asks; a format asked for is the only image type offered", async () => {
      const image = await png(30, 20);
      const jpeg = await t.gw.request("/v1/utils/images/convert", {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": t.key, accept: "image/*, application/json;q=0.5" },
        body: JSON.stringify({ image, format: "jpeg" }),
      });
      expect(jpeg.headers.get("content-type")).toBe("image/jpeg");
      expect(jpeg.headers.get("content-disposition")).toBe('inline; filename="converted.jpg"');
      expect([...Buffer.from(await jpeg.arrayBuffer()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

      const accepting = async (accept: string, body: object) => {
        const res = await t.gw.request("/v1/utils/images/convert", {
          method: "POST",
          headers: { "content-type": "application/json", "X-API-Key": t.key, accept },
          body: JSON.stringify({ image, ...body }),
        });
        expect(res.status).toBe(200);
        return res.headers.get("content-type");
      };
      expect(await accepting("image/*", {})).toBe("image/png");
      expect(await accepting("image/bmp", {})).toBe("image/bmp");
      expect(await accepting("application/json, image/*", {})).toMatch(/^application\/json/);
      expect(await accepting("*/*", {})).toMatch(/^application\/json/);
      expect(await accepting("image/webp", { format: "png" })).toMatch(/^application\/json/);
      expect(await accepting("image/webp;q=0.9, image/png", { format: "png" })).toBe("image/png");
    });

    it("refuses a body of another type with 415 listing what is accepted", async () => {
      const image = await pngBytes(10, 10);
      const listed =
        "send application/json (image as base64) or the raw image as image/png, image/jpeg, image/webp, image/gif, image/avif, image/tiff or image/svg+xml, with the options in the query string";
      for (const type of ["application/octet-stream", "text/plain", "image/bmp", "application/x-www-form-urlencoded"]) {
        const res = await raw("/v1/utils/images/resize?width=5", image, { "content-type": type });
        expect(res.status, type).toBe(415);
        expect((await res.json()).error).toBe(`Content-Type "${type}" is not accepted here: ${listed}`);
      }
      const untyped = await t.gw.request("/v1/utils/images/convert", {
        method: "POST",
        headers: { "X-API-Key": t.key },
        body: new Uint8Array(image),
      });
      expect(untyped.status).toBe(415);
      expect((await untyped.json()).error).toBe(`Content-Type is missing: ${listed}`);
      const pdfAsImage = await raw("/v1/utils/pdf/extract", image, { "content-type": "image/png" });
      expect(pdfAsImage.status).toBe(415);
      expect((await pdfAsImage.json()).error).toMatch(/or the raw pdf as application\/pdf,/);
      // The key is checked first: no key is a 401 whatever the body.
      expect(
        (await raw("/v1/utils/images/resize", image, { "X-API-Key": "", "content-type": "text/plain" })).status,
      ).toBe(401);
    });

    it("caps a raw body as a JSON one: 413 past MAX_BODY_BYTES, declared or streamed", async () => {
      const max = t.gw.rt.config.maxBodyBytes;
      const big = new Uint8Array(max + 1);
      big.set(await pngBytes(10, 10));
      const declared = await raw("/v1/utils/images/resize?width=5", big, { "content-length": String(big.length) });
      expect(declared.status).toBe(413);
      expect((await declared.json()).error).toBe(`request body too large: the limit is ${max} bytes`);
      const streamed = await t.gw.request("/v1/utils/images/resize?width=5", {
        method: "POST",
        headers: { "content-type": "image/png", "X-API-Key": t.key },
        body: new ReadableStream({
          start(controller) {
            for (let at = 0; at < big.length; at += 1 << 20) controller.enqueue(big.subarray(at, at + (1 << 20)));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      expect(streamed.status).toBe(413);
      const empty = await raw("/v1/utils/images/resize?width=5", new Uint8Array(0));
      expect(empty.status).toBe(400);
      expect((await empty.json()).error).toBe("image is missing: the body is empty");
    });

    it("validates the query options with the JSON form's limits, naming the parameter", async () => {
      const image = await pngBytes(10, 10);
      const cases: Array<[string, RegExp]> = [
        ["/v1/utils/images/resize?width=abc", /^invalid request: width: /],
        ["/v1/utils/images/resize?width=0", /^invalid request: width: /],
        ["/v1/utils/images/resize?height=99999", /^invalid request: height: /],
        ["/v1/utils/images/resize?width=5&maintain_aspect=yes", /^invalid request: maintain_aspect: /],
        ["/v1/utils/images/resize?width=5&format=bmp", /^invalid request: format: /],
        ["/v1/utils/images/resize", /^give width, height, or both$/],
        ["/v1/utils/images/convert?quality=0", /^invalid request: quality: /],
        ["/v1/utils/images/convert?format=svg", /^invalid request: format: /],
      ];
      for (const [path, message] of cases) {
        const res = await raw(path, image);
        expect(res.status, path).toBe(400);
        expect((await res.json()).error, path).toMatch(message);
      }
      const notImage = await raw("/v1/utils/images/resize?width=5", "hello, not an image");
      expect(notImage.status).toBe(400);
      expect((await notImage.json()).error).toMatch(/not a supported image/);
    });

    it("extracts a raw PDF with pages and include_metadata in the query", async () => {
      const doc = Buffer.from(await pdf(["First page text", "Second page text", "Third page text"]), "base64");
      const post = (query: string, body: Uint8Array = doc) =>
        raw(`/v1/utils/pdf/extract${query}`, body, { "content-type": "application/pdf" });
      const some = await post("?pages=3,1&include_metadata=true");
      expect(some.status).toBe(200);
      const body = await some.json();
      expect(body.text).toBe("Third page text\n\nFirst page text");
      expect(body.metadata).toMatchObject({ title: "Test document", author: "Ada Lovelace", page_count: 3 });
      expect((await (await post("?pages=2&pages=3")).json()).text).toBe("Second page text\n\nThird page text");
      const all = await (await post("")).json();
      expect([all.page_count, all.metadata]).toEqual([3, undefined]);

      const bad: Array<[string, string]> = [
        ["?pages=0", "pages.0"],
        ["?pages=1,x", "pages.1"],
        ["?include_metadata=1", "include_metadata"],
      ];
      for (const [query, name] of bad) {
        const res = await post(query);
        expect(res.status, query).toBe(400);
        expect((await res.json()).error, query).toMatch(new RegExp(`^invalid request: ${name}: `));
      }
      const out = await post("?pages=4");
      expect((await out.json()).error).toMatch(/out of range: 4/);
      expect((await post("", Buffer.from("plain text"))).status).toBe(400);
    });

    it("still refuses a password-protected PDF sent raw", async () => {
      const res = await raw("/v1/utils/pdf/extract", ENCRYPTED_PDF, {
        "content-type": "application/pdf",
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("pdf is encrypted: remove the password first");
    });

    it("reads a raw body straight off the socket on the Node server, and survives one cut short", async () => {
      // The gateway listens through the Node adapter, which reads a declared body off the socket itself.
      const { key, id } = await t.gw.key();
      const image = new Uint8Array(await pngBytes(400, 200));
      const res = await fetch(`${t.gw.url}/v1/utils/images/resize?width=100&format=jpeg`, {
        method: "POST",
        headers: { "content-type": "image/png", accept: "image/*", "X-API-Key": key },
        body: image,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/jpeg");
      expect(await sharp(Buffer.from(await res.arrayBuffer())).metadata()).toMatchObject({ width: 100, height: 50 });

      // 1,000 bytes declared, 100 sent, then the connection closes.
      const socket = net.connect(Number(new URL(t.gw.url).port), "127.0.0.1");
      await once(socket, "connect");
      socket.write(
        `POST /v1/utils/images/resize?width=5 HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nX-API-Key: ${key}\r\nContent-Length: 1000\r\n\r\n`,
      );
      socket.write(image.subarray(0, 100));
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      await vi.waitFor(
        async () => {
          await t.gw.rt.meter.flush();
          const events = await t.gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: id, status: 400 } });
          expect(events).toHaveLength(1);
        },
        { timeout: 5000 },
      );
      const after = await fetch(`${t.gw.url}/v1/utils/images/convert`, {
        method: "POST",
        headers: { "content-type": "image/png", "X-API-Key": key },
        body: image,
      });
      expect(await after.json()).toMatchObject({ format: "png", width: 400, height: 200 });
    });

    it("documents both request forms, the query options and the binary answers in /openapi.json", async () => {
      const doc = await (await t.get("/openapi.json", false)).json();
      const resize = doc.paths["/v1/utils/images/resize"].post;
      expect(resize.requestBody.required).toBe(true);
      expect(Object.keys(resize.requestBody.content)).toEqual([
        "application/json",
        "image/png",
        "image/jpeg",
        "image/webp",
        "image/gif",
        "image/avif",
        "image/tiff",
        "image/svg+xml",
      ]);
      expect(resize.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
        "query:width",
        "query:height",
        "query:maintain_aspect",
        "query:format",
      ]);
      expect(Object.keys(resize.responses["200"].content)).toEqual([
        "application/json",
        "image/png",
        "image/jpeg",
        "image/webp",
      ]);
      expect(Object.keys(resize.responses["200"].headers)).toContain("X-Image-Width");
      expect(resize.responses["415"]).toBeDefined();
      const pdfDoc = doc.paths["/v1/utils/pdf/extract"].post;
      expect(Object.keys(pdfDoc.requestBody.content)).toEqual(["application/json", "application/pdf"]);
    });
  });

  describe("image bombs", () => {
    it("refuses a solid-colour 7071×7071 PNG as BMP, and a 10000×10000 resize, with 413; the server still answers", async () => {
      const bomb = await sharp({ create: { width: 7071, height: 7071, channels: 3, background: "#336699" } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(bomb.length).toBeLessThan(300_000);
      const bmp = await post("/v1/utils/images/convert", { image: bomb.toString("base64"), format: "bmp" });
      expect(bmp.status).toBe(413);
      expect((await bmp.json()).error).toBe("output image is too large: 7071x7071 exceeds 16,777,216 pixels");
      const big = await post("/v1/utils/images/resize", {
        image: await png(100, 100),
        width: 10_000,
        height: 10_000,
        maintain_aspect: false,
      });
      expect(big.status).toBe(413);
      expect((await big.json()).error).toMatch(/output image is too large: 10000x10000/);
      const tall = await post("/v1/utils/images/resize", { image: await png(10, 1000), width: 10_000 });
      expect(tall.status).toBe(413);

      expect((await t.get("/health", false)).status).toBe(200);
      const small = await post("/v1/utils/images/convert", { image: await png(4096, 4096), format: "bmp" });
      expect(small.status).toBe(200);
      expect(await small.json()).toMatchObject({ width: 4096, height: 4096, bytes: 54 + 4096 * 4096 * 3 });
    });

    it("refuses an SVG whose text would take minutes to lay out with 413 at once; a labelled one converts", async () => {
      // librsvg lays a text element out in time quadratic in its length: 100 kB of one word was minutes of
      // work, stopped only at the job's time limit (422 after 30 s).
      const drawing = (text: string) =>
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="4" y="24">${text}</text></svg>`,
        ).toString("base64");
      const started = performance.now();
      const long = await post("/v1/utils/images/convert", { image: drawing("A".repeat(100_000)), format: "png" });
      expect(long.status).toBe(413);
      expect((await long.json()).error).toMatch(/^image is an SVG with more text than the server lays out/);
      // An answer, not a hang: the bound only tells a refusal before any layout from minutes of it.
      expect(performance.now() - started).toBeLessThan(10_000);
      const labelled = await post("/v1/utils/images/convert", { image: drawing("Quarterly sales"), format: "png" });
      expect(labelled.status).toBe(200);
      expect(await labelled.json()).toMatchObject({ format: "png", width: 200, height: 40 });
    });
  });

  describe("POST /v1/utils/pdf/extract", () => {
    it("reads at most 100 pages a request: more without pages is a 413 saying how to choose them", async () => {
      const doc = await pdf(Array.from({ length: 101 }, (_, i) => `Page ${i + 1}`));
      const res = await post("/v1/utils/pdf/extract", { pdf: doc });
      expect(res.status).toBe(413);
      expect((await res.json()).error).toBe(
        "pdf has 101 pages; at most 100 are read per request: choose them with pages",
      );
      const last = await (await post("/v1/utils/pdf/extract", { pdf: doc, pages: [101] })).json();
      expect(last).toMatchObject({ text: "Page 101", page_count: 101 });
      expect(
        (await post("/v1/utils/pdf/extract", { pdf: doc, pages: Array.from({ length: 101 }, (_, i) => i + 1) })).status,
      ).toBe(400);
    });

    it("extracts text per page, a selection of pages, and metadata", async () => {
      const doc = await pdf(["First page text", "Second page text", "Third page text"]);
      const all = await (await post("/v1/utils/pdf/extract", { pdf: doc })).json();
      expect(all.page_count).toBe(3);
      expect(all.pages.map((p: { text: string }) => p.text)).toEqual([
        "First page text",
        "Second page text",
        "Third page text",
      ]);
      expect(all.metadata).toBeUndefined();

      const some = await (
        await post("/v1/utils/pdf/extract", { pdf: doc, pages: [3, 1], include_metadata: true })
      ).json();
      expect(some.text).toBe("Third page text\n\nFirst page text");
      expect(some.metadata).toMatchObject({ title: "Test document", author: "Ada Lovelace", page_count: 3 });
    });

    it("returns the text and null metadata fields for a PDF without an Info dictionary or XMP packet", async () => {
      const res = await post("/v1/utils/pdf/extract", {
        pdf: minimalPdf("Hand written").toString("base64"),
        include_metadata: true,
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.text).toBe("Hand written");
      expect(body.metadata).toEqual({
        title: null,
        author: null,
        subject: null,
        creator: null,
        producer: null,
        creation_date: null,
        modification_date: null,
        page_count: 1,
        pdf_version: "1.4",
      });
    });

    it("refuses a password-protected PDF with 400 saying so", async () => {
      const locked = ENCRYPTED_PDF.toString("base64");
      const res = await post("/v1/utils/pdf/extract", { pdf: locked });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/encrypted/);
    });

    it("refuses pages out of range, non-PDFs and corrupt PDFs with 400", async () => {
      const doc = await pdf(["only page"]);
      const out = await post("/v1/utils/pdf/extract", { pdf: doc, pages: [2] });
      expect(out.status).toBe(400);
      expect((await out.json()).error).toMatch(/out of range: 2/);
      expect((await post("/v1/utils/pdf/extract", { pdf: Buffer.from("plain text").toString("base64") })).status).toBe(
        400,
      );
      const corrupt = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(200, 7)]).toString("base64");
      const res = await post("/v1/utils/pdf/extract", { pdf: corrupt });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/pdf could not be read/);
    });
  });
});

describe("a PDF that keeps pdf.js busy", () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { WORKER_JOB_TIMEOUT_MS: "5000" } });
    ({ key } = await gw.key());
  });
  afterAll(() => gw?.close());
  const extract = (pdfBytes: Buffer) =>
    gw.request("/v1/utils/pdf/extract", {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": key },
      body: JSON.stringify({ pdf: pdfBytes.toString("base64") }),
    });

  it("is stopped at the job time limit with 422, and the next PDF is read as usual", async () => {
    // 25 million text operators in ~250 kB: tens of seconds of pdf.js on a page nobody can read. Made
    // first: deflating it keeps this process (the gateway's too) busy for seconds, long enough for an
    // idle kept-alive connection to reach the server's keep-alive timeout while the client still holds it.
    const bomb = minimalPdf("x", 25_000_000);
    expect((await extract(minimalPdf("warm"))).status).toBe(200);
    expect(bomb.length).toBeLessThan(400_000);
    // Stopped, not finished (that would be a 200), and where: the message names the limit. No stopwatch:
    // on a busy machine the answer's time is the thread's start and the machine's load as much as the limit.
    const res = await extract(bomb);
    expect(res.status).toBe(422);
    expect((await res.json()).error).toBe("pdf took longer than the 5 s a job may run, so it was stopped");
    expect((await gw.request("/health")).status).toBe(200);
    const after = await extract(minimalPdf("after"));
    expect(after.status).toBe(200);
    expect((await after.json()).text).toBe("after");
  });
});

describe("a heavy job's time limit counts its own work", () => {
  const pdfGateway = async (env: Record<string, string>) => {
    const gw = await startTestGateway({ env: { WORKER_THREADS: "1", ...env } });
    const { key } = await gw.key();
    const extract = (pdfBytes: Buffer) =>
      gw.request("/v1/utils/pdf/extract", {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": key },
        body: JSON.stringify({ pdf: pdfBytes.toString("base64") }),
      });
    return { gw, extract };
  };

  // No limit is raced against the job's own work (a one-page PDF gets 6 s, however busy the machine): the
  // queued job answers 200 although more than its 6 s passed since it was sent, which a limit counted
  // from submission would not allow. That the limit starts once the task's module is loaded, not at a
  // thread's start, is shown with a controllable clock and the order of events beside the code
  // (lib/gateway/runtime/worker-pool.test.ts, lib/workers/heavy-tasks.test.ts).
  it("not the wait before its work: a job queued behind one stopped at the limit, then started on a new thread, reads its PDF", async () => {
    const limitMs = 6_000;
    // Made before any request (see the first time-limit test: deflating it blocks this process for seconds).
    const bombPdf = minimalPdf("x", 25_000_000);
    const { gw, extract } = await pdfGateway({ WORKER_JOB_TIMEOUT_MS: String(limitMs) });
    try {
      // The key is looked up once before the timed requests (invalid input, refused before the pool).
      expect((await extract(Buffer.alloc(0))).status).toBe(400);
      const bomb = extract(bombPdf);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const sent = performance.now();
      const queued = await extract(minimalPdf("queued"));
      const waited = performance.now() - sent;
      expect(queued.status, await queued.clone().text()).toBe(200);
      expect((await queued.json()).text).toBe("queued");
      // It waited out the bomb's whole limit, then a new thread's start and pdf.js's import: more than a
      // limit counted from its sending would allow.
      expect(waited).toBeGreaterThan(limitMs);
      expect((await bomb).status).toBe(422);
    } finally {
      await gw.close();
    }
  }, 90_000);

  it("a job that cannot begin within WORKER_WAIT_MS behind a busy thread is refused with 503 and Retry-After", async () => {
    const bombPdf = minimalPdf("x", 25_000_000);
    const { gw, extract } = await pdfGateway({ WORKER_JOB_TIMEOUT_MS: "10000", WORKER_WAIT_MS: "1500" });
    try {
      // A thread's start counts against the wait too, and takes longer than 1.5 s on a busy machine; a
      // job refused meanwhile leaves the thread starting, so the warm-up is tried until it is served.
      let warm = 0;
      for (let tries = 0; tries < 30 && warm !== 200; tries++) warm = (await extract(minimalPdf("warm"))).status;
      expect(warm).toBe(200);
      const bomb = extract(bombPdf);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = performance.now();
      const queued = await extract(minimalPdf("queued"));
      expect(queued.status).toBe(503);
      expect(queued.headers.get("retry-after")).toBe("1");
      expect((await queued.json()).error).toBe(
        "the server could not start this job within 1.5 s, being busy with other heavy jobs: try again shortly",
      );
      expect(performance.now() - started).toBeGreaterThan(1400);
      expect((await bomb).status).toBe(422);
    } finally {
      await gw.close();
    }
  }, 90_000);
});

describe("text and data conversion of hostile input", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { WORKER_JOB_TIMEOUT_MS: "5000" } });
  });
  afterAll(() => gw?.close());
  const convert = (content: string, from_format: string, to_format: string) =>
    gw.request("/v1/utils/format/convert", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content, from_format, to_format }),
    });

  // "Off the event loop" is shown by order, not by a stopwatch: /health is answered while the job is still
  // running (on the event loop, the job would have ended first). The 422's message shows where it stopped.
  it("runs off the event loop: 99 kB of `_a**` (~45 s of marked) is stopped with 422 while /health answers", async () => {
    let ended = false;
    const pending = convert("_a**".repeat(24_750), "markdown", "html").finally(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await gw.request("/health")).status).toBe(200);
    expect(ended).toBe(false);
    const res = await pending;
    expect(res.status).toBe(422);
    expect((await res.json()).error).toBe("content took longer than the 5 s a job may run, so it was stopped");
    const after = await convert("# after", "markdown", "html");
    expect((await after.json()).result).toContain("<h1>after</h1>");
  }, 60_000);

  it("converts data off the event loop too: 60,000 YAML keys (~40 s of the parser) stop at the job limit, /health answers", async () => {
    const { key } = await gw.key();
    const yaml = Array.from({ length: 60_000 }, (_, i) => `k${i}: v${i}`).join("\n");
    let ended = false;
    const pending = gw
      .request("/v1/utils/convert", {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": key },
        body: JSON.stringify({ data: yaml, source_format: "yaml", target_format: "json" }),
      })
      .finally(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await gw.request("/health")).status).toBe(200);
    expect(ended).toBe(false);
    const res = await pending;
    expect(res.status).toBe(422);
    expect((await res.json()).error).toBe("data took longer than the 5 s a job may run, so it was stopped");
  }, 60_000);
});

// With the default job time: under a loaded machine, parsing this much nesting can outlast the 5 s
// the describe above allows, and the refusal being checked here is the 400, not the time limit.
describe("text conversion of deeply nested input", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());
  const convert = (content: string, from_format: string, to_format: string) =>
    gw.request("/v1/utils/format/convert", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content, from_format, to_format }),
    });

  it("refuses content nested past the parsers' stack with 400, in each direction", async () => {
    const cases: Array<[string, string, string]> = [
      ["> ".repeat(49_000) + "x", "markdown", "html"],
      ["> ".repeat(49_000) + "x", "markdown", "plain"],
      ["<div>".repeat(19_000), "html", "markdown"],
      ["<table><tr><td>".repeat(6_000), "html", "markdown"],
    ];
    for (const [content, from, to] of cases) {
      const res = await convert(content, from, to);
      expect(res.status, `${from} → ${to}`).toBe(400);
      expect((await res.json()).error).toBe("content is nested too deeply to convert");
    }
  }, 60_000);
});

describe("a job that outgrows the pool's memory limit", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { WORKER_MEMORY_MB: "32" } });
  });
  afterAll(() => gw?.close());

  it("fails its own request with 413 naming the limit; the process and the next small job carry on", async () => {
    // 4 MB of JSON becomes far more than 32 MB of objects and YAML nodes: over the limit on any run,
    // where a job near the limit would pass or fail with the garbage collector's timing.
    const { key } = await gw.key();
    const rows = Array.from({ length: 150_000 }, (_, i) => ({ id: i, name: `row ${i}`, ok: i % 2 === 0 }));
    const res = await gw.request("/v1/utils/convert", {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": key },
      body: JSON.stringify({ data: JSON.stringify(rows), source_format: "json", target_format: "yaml" }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("data needs more than the 32 MB of memory a job may use");
    expect((await gw.request("/health")).status).toBe(200);
    // The next job runs on a fresh thread. A small conversion, not a keyword job: keywords load a
    // ~22 MB lexicon, too near this test's 32 MB limit to pass on every run.
    const small = await gw.request("/v1/utils/convert", {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": key },
      body: JSON.stringify({ data: '{"panels":["solar"]}', source_format: "json", target_format: "yaml" }),
    });
    expect(small.status).toBe(200);
    expect((await small.json()).result).toBe("panels:\n  - solar\n");
  });
});
