// Local utilities through the gateway (HTTP, key, limits, metering) against the same library call in
// this process, in one run: image resize 1024² → 256² (sharp) in both request forms — the spec's JSON
// with base64 both ways, and the raw PNG as the body answered with the PNG's bytes — and Markdown → PDF.
// Target: the gateway adds at most 10 % to the library's own time (for the image, with a raw body).
// Also timed: the raw PNG POSTed to a bare node:http sink in its own process (bench/sink-server.ts),
// the floor any out-of-process service pays to receive it, so the overhead splits into that and ours;
// and for Markdown → PDF the same two floors: its body to the sink, and the render on a worker thread
// (the compiled pool task through piscina, no HTTP), since heavy work runs off the event loop.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Piscina } from "piscina";
import sharp from "sharp";
import { renderPdf } from "../lib/api/documents/render-pdf.ts";
import { backendEnv } from "../test/support/backends.ts";
import { runKeysCli } from "../test/support/server-process.ts";
import { startCompiledServer } from "./compiled-server.ts";
import { startScriptServer } from "./support.ts";
import { report } from "./results.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
// One at a time: client and server share two cores, and concurrency would measure their contention.
const CONCURRENCY = 1;

async function timed(label: string, run: () => Promise<unknown>): Promise<{ label: string; perOp: number }> {
  for (let i = 0; i < 5; i++) await run();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < ROUNDS) await run();
    }),
  );
  return { label, perOp: (performance.now() - started) / ROUNDS };
}

// A photo-like image: smooth gradients with noise, so PNG compresses it the way it would a real one.
async function photoLikeImage(): Promise<Buffer> {
  const raw = Buffer.alloc(1024 * 1024 * 3);
  const noise = randomBytes(raw.length);
  for (let y = 0; y < 1024; y++) {
    for (let x = 0; x < 1024; x++) {
      const i = (y * 1024 + x) * 3;
      raw[i] = (x / 4 + (noise[i]! & 15)) & 255;
      raw[i + 1] = (y / 4 + (noise[i + 1]! & 15)) & 255;
      raw[i + 2] = ((x + y) / 8 + (noise[i + 2]! & 15)) & 255;
    }
  }
  return sharp(raw, { raw: { width: 1024, height: 1024, channels: 3 } })
    .png()
    .toBuffer();
}

const MARKDOWN = Array.from(
  { length: 12 },
  (_, i) =>
    `## Section ${i + 1}\n\nSome **bold** text, a [link](https://example.com) and a list:\n\n- one\n- two\n\n| a | b |\n| - | - |\n| ${i} | ${i * 2} |\n`,
).join("\n");

async function main() {
  const backend = await backendEnv("pglite");
  const env = { ...backend.env, LOG_LEVEL: "warn", SERVE_PORTAL: "false" };
  const server = await startCompiledServer(env);
  const sink = await startScriptServer("bench/sink-server.ts");
  try {
    const { key } = (
      await runKeysCli(
        ["create", "--name", "bench-utils", "--minute", "1000000", "--day", "100000000", "--concurrency", "1000"],
        env,
      )
    ).lines[0] as { key: string };
    const headers = { "content-type": "application/json", "X-API-Key": key };
    const png = await photoLikeImage();
    const image = png.toString("base64");

    const direct = await timed("sharp resize in process", () =>
      sharp(png).resize({ width: 256, height: 256, fit: "inside" }).png().toBuffer(),
    );
    // Bodies are serialised once, as a client holding its request would; only the call is timed.
    const resizeBody = JSON.stringify({ image, width: 256, height: 256 });
    const pdfBody = JSON.stringify({ title: "Bench", content: MARKDOWN });
    const viaGateway = await timed("POST /v1/utils/images/resize (JSON, base64)", async () => {
      const res = await fetch(`${server.url}/v1/utils/images/resize`, { method: "POST", headers, body: resizeBody });
      if (res.status !== 200) throw new Error(`resize answered ${res.status}`);
      await res.arrayBuffer();
    });
    const rawHeaders = { "content-type": "image/png", accept: "image/png", "X-API-Key": key };
    const rawBody = new Uint8Array(png);
    const viaGatewayRaw = await timed("POST /v1/utils/images/resize (raw PNG in, PNG out)", async () => {
      const res = await fetch(`${server.url}/v1/utils/images/resize?width=256&height=256`, {
        method: "POST",
        headers: rawHeaders,
        body: rawBody,
      });
      if (res.status !== 200 || res.headers.get("content-type") !== "image/png") {
        throw new Error(`raw resize answered ${res.status} ${res.headers.get("content-type")}`);
      }
      await res.arrayBuffer();
    });
    const transport = await timed("POST the raw PNG to a bare node:http sink", async () => {
      const res = await fetch(sink.url, { method: "POST", headers: { "content-type": "image/png" }, body: rawBody });
      if ((await res.json()).length !== rawBody.length) throw new Error("the sink read a different length");
    });
    const pdfArgs = () => ({ title: "Bench", content: MARKDOWN, template: "default", date: new Date() }) as const;
    const pdfDirect = await timed("renderPdf in process", () => renderPdf(pdfArgs()));
    const pdfTransport = await timed("POST the Markdown JSON to a bare node:http sink", async () => {
      const res = await fetch(sink.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: pdfBody,
      });
      await res.arrayBuffer();
    });
    const pool = new Piscina({
      filename: path.resolve("dist", "heavy-tasks.mjs"),
      name: "runHeavyTask",
      maxThreads: 1,
      execArgv: [],
    });
    const pdfWorker = await timed("renderPdf on a worker thread (piscina, no HTTP)", () =>
      pool.run({ task: "pdfRender", args: pdfArgs() }),
    ).finally(() => pool.close());
    const pdfGateway = await timed("POST /v1/documents/generate", async () => {
      const res = await fetch(`${server.url}/v1/documents/generate`, { method: "POST", headers, body: pdfBody });
      if (res.status !== 200) throw new Error(`generate answered ${res.status}`);
      await res.arrayBuffer();
    });

    console.log(
      `input: ${png.length.toLocaleString("en-US")}-byte PNG (1024x1024), ${MARKDOWN.length} characters of Markdown; ${ROUNDS} rounds, ${CONCURRENCY} at a time`,
    );
    console.table(
      [direct, viaGateway, viaGatewayRaw, transport, pdfDirect, pdfTransport, pdfWorker, pdfGateway].map((r) => ({
        operation: r.label,
        "ms per op": Number(r.perOp.toFixed(2)),
      })),
    );
    // Targets: the raw body within 10 %, the spec's JSON base64 body within 50 %.
    const TARGETS = { "image resize, JSON base64": 50, "image resize, raw body": 10, "markdown → pdf": 10 } as const;
    const pdfFloor = ((pdfTransport.perOp + pdfWorker.perOp) / pdfDirect.perOp - 1) * 100;
    const pdfFloorNote = `the floor, the body to a bare sink (${pdfTransport.perOp.toFixed(1)} ms) and the render on a worker thread (${pdfWorker.perOp.toFixed(1)} ms), is ${pdfFloor.toFixed(1)} % over in process`;
    for (const [name, inProcess, gateway] of [
      ["image resize, JSON base64", direct, viaGateway],
      ["image resize, raw body", direct, viaGatewayRaw],
      ["markdown → pdf", pdfDirect, pdfGateway],
    ] as const) {
      const overhead = (gateway.perOp / inProcess.perOp - 1) * 100;
      report({
        bench: "utils",
        measure: `${name}: overhead over in process`,
        value: Number(overhead.toFixed(1)),
        unit: "%",
        target: `<= ${TARGETS[name]}`,
        note:
          `${gateway.perOp.toFixed(1)} vs ${inProcess.perOp.toFixed(1)} ms an operation` +
          (name === "markdown → pdf" ? `; ${pdfFloorNote}` : ""),
      });
    }
    const ours = viaGatewayRaw.perOp - direct.perOp - transport.perOp;
    console.log(
      `image resize, raw body: of the ${(viaGatewayRaw.perOp - direct.perOp).toFixed(1)} ms over sharp, ${transport.perOp.toFixed(1)} ms is the transport floor (the body to a bare sink), ${ours.toFixed(1)} ms (${((ours / direct.perOp) * 100).toFixed(1)} % of sharp's time) the gateway's own`,
    );
  } finally {
    sink.stop();
    await server.stop();
    await backend.cleanup();
  }
}

await main();
