// The transport floor for a request body: a bare Node HTTP server that reads the whole body and answers
// its length, so a benchmark can tell moving the bytes between processes from what the gateway adds.
import http from "node:http";

const server = http.createServer((req, res) => {
  let length = 0;
  req.on("data", (chunk: Buffer) => (length += chunk.length));
  req.on("end", () => {
    const body = JSON.stringify({ length });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
