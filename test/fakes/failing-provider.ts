import http from "node:http";
import { listen, type Listening } from "../support/listen.ts";

/**
 * A provider that fails as the first segment of the path says, whatever endpoint follows it (a routing
 * deployment's origin is `<url>/<mode>`): 500, 429 (Retry-After: 0), 529, 400, or `reset` (the
 * connection closed without an answer). Counts requests per mode.
 */
export async function startFakeFailingProvider(): Promise<Listening & { hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const served = await listen(
    http.createServer((req, res) => {
      const mode = req.url!.split("/")[1]!;
      hits.set(mode, (hits.get(mode) ?? 0) + 1);
      req.resume();
      if (mode === "reset") {
        req.socket.destroy();
        return;
      }
      const status = Number(mode);
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (status === 429) headers["retry-after"] = "0";
      res.writeHead(status, headers);
      res.end(JSON.stringify({ error: { message: `failing with ${status} as asked`, type: "test" } }));
    }),
  );
  return Object.assign(served, { hits });
}
