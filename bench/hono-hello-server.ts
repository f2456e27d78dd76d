// A baseline for GET /health: a Hono hello on @hono/node-server, a common web framework's floor on Node.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono().get("/", (c) => c.json({ hello: "world" }));
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${info.port}` }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
