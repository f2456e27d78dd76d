import type { IncomingMessage, ServerResponse } from "node:http";
import keyArea from "./api/key/index.ts";
import { KEY_PATH } from "./api/key/index.ts";
import { keyInfo } from "./api/key/key-info.ts";
import { HEALTH, HEALTH_PATH } from "./api/status/routes.ts";
import { requestIdOf } from "./gateway/http/request-id.ts";
import { effectiveLimits, keyAllowsArea, type KeyRecord } from "./gateway/keys/record.ts";
import type { Runtime } from "./gateway/runtime/runtime.ts";

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * The two routes called most often — liveness probes on /health, key checks on /v1/key — answered on
 * Node's own request and response, in front of the Hono app (`next`), which costs these answers more
 * than everything they do (measured: /health 140 µs through the app against ~70 for a Hono hello).
 * Only the ordinary case is answered here: a HEAD, a query string, no key or one this process does not
 * hold in memory yet, two ways of sending it, a key that is revoked, expired, out of scope or over budget,
 * and any refusal by the limiter all go to the app, whose pipeline stays the one definition of every
 * error answer. What is answered here carries the same headers and body, and is metered, counted and
 * logged as the app would.
 */
export function directRoutes(rt: Runtime, next: NodeListener): NodeListener {
  const health = Buffer.from(JSON.stringify(HEALTH));

  function observe(route: string, status: number, started: number, requestId: string) {
    const ms = performance.now() - started;
    rt.metrics.requests.record("GET", route, status, ms / 1000);
    if (rt.logger.isLevelEnabled("debug")) rt.logger.debug({ requestId, method: "GET", route, status, ms }, "request");
  }

  function serveHealth(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now();
    const id = requestIdOf(req.headers["x-request-id"] as string | undefined);
    res.writeHead(200, { "X-Request-Id": id, "Content-Type": "application/json", "Content-Length": health.length });
    res.end(health);
    observe(HEALTH_PATH, 200, started, id);
  }

  /** The key's record when it may be served here without a question; undefined sends the request on. */
  function servableKey(req: IncomingMessage, now: number): KeyRecord | undefined {
    const header = req.headers["x-api-key"];
    const authorization = req.headers.authorization;
    let raw: string | undefined;
    if (header !== undefined) raw = authorization === undefined ? header.toString().trim() : undefined;
    else if (authorization !== undefined) raw = BEARER.exec(authorization.trim())?.[1];
    const key = raw ? rt.keys.peek(raw) : undefined;
    if (
      !key ||
      key.status !== "active" ||
      (key.expiresAt !== null && key.expiresAt <= now) ||
      !keyAllowsArea(key, keyArea.scope) ||
      rt.budgets.refusal(key.id, now)
    )
      return undefined;
    return key;
  }

  async function serveKey(req: IncomingMessage, res: ServerResponse) {
    const started = performance.now();
    const key = servableKey(req, Date.now());
    if (!key) return next(req, res);
    let admission;
    try {
      admission = await rt.limiter.admit(key.limitKey, effectiveLimits(key, rt.config.limits));
    } catch {
      // A refusal uses nothing of any window, so the app's own admission refuses (and meters) it again.
      return next(req, res);
    }
    const id = requestIdOf(req.headers["x-request-id"] as string | undefined);
    const body = JSON.stringify(keyInfo(key, admission, rt.config.limits));
    const length = Buffer.byteLength(body);
    res.writeHead(200, {
      "X-Request-Id": id,
      ...admission.headers,
      "Content-Type": "application/json",
      "Content-Length": length,
    });
    res.end(body);
    admission.release();
    rt.meter.record({
      keyId: key.id,
      requestId: id,
      method: "GET",
      route: KEY_PATH,
      area: keyArea.scope,
      status: 200,
      latencyMs: performance.now() - started,
      bytesIn: Number(req.headers["content-length"] ?? 0) || 0,
      bytesOut: length,
      at: new Date(),
    });
    observe(KEY_PATH, 200, started, id);
  }

  return function direct(req, res) {
    if (req.method === "GET") {
      if (req.url === HEALTH_PATH) return serveHealth(req, res);
      if (req.url === KEY_PATH) return void serveKey(req, res);
    }
    next(req, res);
  };
}
