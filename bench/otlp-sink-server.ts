// An OTLP/HTTP collector that reads every export and answers 200 with an empty response, in its own
// process: the tracing bench's gateway exports to it, so what tracing costs the gateway is measured
// with its exports really sent, and the collector's own work is not in the gateway's CPU.
import http from "node:http";

let spans = 0;
const server = http.createServer((req, res) => {
  let bytes = 0;
  req.on("data", (chunk: Buffer) => (bytes += chunk.length));
  req.on("end", () => {
    spans += bytes > 0 ? 1 : 0;
    const json = req.headers["content-type"]?.includes("json");
    res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
    res.end(json ? "{}" : "");
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` }));
});
process.on("SIGTERM", () => {
  process.stderr.write(`otlp sink: ${spans} exports received\n`);
  server.close(() => process.exit(0));
});
