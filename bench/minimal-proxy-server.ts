// The floor under a relayed completion: the least a Node proxy can do for one — read the client's
// body, POST it upstream on a keep-alive undici pool (as the gateway does), and pass the answer back
// (a stream's bytes as they arrive, unparsed).
// No key, no validation, no metering, no framework. bench/llm-completion.ts and bench/llm-stream.ts time
// it beside the gateway against the same fake provider, so what any Node relay reaches there is known.
import http from "node:http";
import { Agent, request } from "undici";

const upstream = `${process.env.PROXY_UPSTREAM}/v1/chat/completions`;
const pool = new Agent({ keepAliveTimeout: 60_000, connections: 256 });

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (d: Buffer) => chunks.push(d));
  req.on("end", () => {
    request(upstream, {
      dispatcher: pool,
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench" },
      body: Buffer.concat(chunks),
    })
      .then(async (answer) => {
        // A stream is passed on as its bytes arrive, unparsed: the floor under a relayed stream.
        const type = String(answer.headers["content-type"] ?? "");
        if (type.startsWith("text/event-stream")) {
          res.writeHead(answer.statusCode, { "content-type": type, "cache-control": "no-cache" });
          for await (const chunk of answer.body) res.write(chunk);
          res.end();
          return;
        }
        const body = Buffer.from(await answer.body.arrayBuffer());
        res.writeHead(answer.statusCode, { "content-type": "application/json", "content-length": body.length });
        res.end(body);
      })
      .catch(() => {
        res.writeHead(502).end();
      });
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
