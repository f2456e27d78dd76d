// The floor under bench/instances.ts's scaling: bare-server.ts's one small JSON answer on node:cluster,
// INSTANCES workers sharing one port as `npm run cluster`'s web instances do. What two instances gain
// over one here, with the load generator on the same cores, is the most any server could gain.
import cluster from "node:cluster";
import http from "node:http";

const instances = Number(process.env.INSTANCES ?? 1);
const body = JSON.stringify({ hello: "world" });

if (cluster.isPrimary) {
  // Port 0 is shared: node:cluster gives every worker the port the first one was bound to.
  const workers = Array.from({ length: instances }, () => cluster.fork());
  const ports = await Promise.all(
    workers.map((w) => new Promise<number>((resolve) => w.once("listening", (address) => resolve(address.port)))),
  );
  console.log(JSON.stringify({ url: `http://127.0.0.1:${ports[0]}` }));
  process.on("SIGTERM", () => {
    for (const w of workers) w.kill("SIGTERM");
    process.exit(0);
  });
} else {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, "127.0.0.1");
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
