// The baseline: the least a Node HTTP server can do for one small JSON answer.
import http from "node:http";

const body = JSON.stringify({ hello: "world" });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
