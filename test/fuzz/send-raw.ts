import http from "node:http";
import type { Answer } from "./judge-answer.ts";
import type { FuzzCase } from "./hostile-cases.ts";

const MAX_READ_BYTES = 32 * 1024 * 1024;

/**
 * Sends one case exactly as written (node:http keeps the target unnormalised: `..`, `%2F` and broken
 * escapes reach the server as sent). An empty header value means "leave this header out". A stream
 * (text/event-stream) is judged by its status and type, so it is closed once they arrive.
 */
export function sendRaw(origin: string, c: FuzzCase, timeoutMs: number, agent: http.Agent): Promise<Answer> {
  const url = new URL(origin);
  const headers = Object.fromEntries(Object.entries(c.headers).filter(([, value]) => value !== ""));
  if (c.body !== undefined) headers["content-length"] = String(Buffer.byteLength(c.body));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const req = http.request(
      { host: url.hostname, port: url.port, method: c.method, path: c.target, headers, agent },
      (res) => {
        const contentType = String(res.headers["content-type"] ?? "");
        const answer = (body: Buffer) => ({ status: res.statusCode ?? 0, contentType, body });
        if (contentType.startsWith("text/event-stream")) {
          finish(answer(Buffer.alloc(0)));
          return void res.destroy();
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_READ_BYTES) chunks.push(chunk);
        });
        res.on("end", () => finish(answer(Buffer.concat(chunks))));
        res.on("error", (err) => finish({ ...answer(Buffer.alloc(0)), failure: `answer broke off: ${err.message}` }));
      },
    );
    const timer = setTimeout(() => {
      finish({
        status: 0,
        contentType: "",
        body: Buffer.alloc(0),
        failure: `no answer within ${timeoutMs} ms`,
        timedOut: true,
      });
      req.destroy();
    }, timeoutMs);
    req.on("error", (err) =>
      finish({ status: 0, contentType: "", body: Buffer.alloc(0), failure: `connection failed: ${err.message}` }),
    );
    req.end(c.body);
  });
}
