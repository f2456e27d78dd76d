import http from "node:http";
import { getGateway } from "./lib/instance.ts";
import { isGatewayRequest } from "./lib/front-door.ts";
import { addressBucket, resolveClientAddress } from "./lib/gateway/http/trusted-proxies.ts";
import {
  followBuild,
  sendUnavailable,
  takePendingBuild,
  type PendingBuild,
  type PortalGate,
} from "./lib/portal/build-state.ts";
import { loadPortalConfig } from "./lib/portal/config.ts";
import { announceFirstRunLink } from "./lib/portal/sign-in/first-run.ts";
import { CLIENT_ADDRESS_HEADER } from "./lib/portal/sign-in/limits.ts";
import { deferWasmOptimisation } from "./lib/gateway/runtime/wasm-memory.ts";
import { keepRequestsYoung } from "./lib/gateway/runtime/pretenuring.ts";

/**
 * Production entry (`npm start` runs it compiled, as dist/server.mjs): one Node process. API paths go
 * straight to the gateway's pipeline (its Node adapter); everything else (the portal) to Next's request handler, so API calls never
 * pay for Next's pipeline.
 */
deferWasmOptimisation();
keepRequestsYoung();
const gateway = await getGateway().catch((err: unknown) => {
  // Startup refusals (a database directory another process holds, bad configuration) are for a person to read.
  process.stderr.write(`gateway: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
const { config, logger } = gateway.rt;
const api = gateway.app.node;

const servePortal = process.env.SERVE_PORTAL !== "false";
type PortalHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;
let portal: PortalHandler | undefined;
let pendingBuild: PendingBuild | undefined;
/** While `npm start` builds the portal in the background: what portal requests get until Next runs. */
let portalGate: PortalGate | undefined;

/** Starts Next in this process on the portal's build in .next (after `next build`, or with `npm run dev`'s sources). */
async function startNext(): Promise<PortalHandler> {
  const { default: next } = await import("next");
  // The project root, where .next is: this file runs from dist/ once compiled, so not its own directory.
  const dir = process.cwd();
  const nextApp = next({ dev: process.env.NODE_ENV === "development", dir, hostname: config.host, port: config.port });
  await nextApp.prepare();
  return nextApp.getRequestHandler();
}

if (servePortal) {
  // The portal reads its settings on its first request; reading them now makes a setting that cannot
  // work (KEY_APPROVAL=domains without domains, say) stop the start with its reason instead.
  try {
    for (const notice of loadPortalConfig().deprecations) logger.warn(notice);
  } catch (err) {
    process.stderr.write(`gateway: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  // With no build of the portal, or a stale one, scripts/start.mjs leaves its `next build` to start once the
  // server listens (below): the API is served at once, portal requests get a 503 "being built" page, and Next
  // starts in this process when the build is done. Otherwise the build is current and Next starts before the
  // server listens, as whoever waits for the listening line (the tests, a load balancer's first check) expects.
  pendingBuild = takePendingBuild();
  if (!pendingBuild) portal = await startNext();
}

const server = http.createServer((req, res) => {
  if (!servePortal || isGatewayRequest(req.url ?? "/", req.headers.accept)) return api(req, res);
  const handler = portal ?? portalGate?.handler;
  // No gate yet: the server is listening, and the build starts as soon as it has said so (below).
  if (!handler) return sendUnavailable(req, res, portalGate?.phase ?? { name: "building", since: Date.now() });
  // Replaces any value the client sent: the portal's per-client limits must not be the caller's to choose.
  // Counted as the API counts keyless clients: TRUST_PROXY hops only, IPv6 by its /64.
  const forwarded = req.headers["x-forwarded-for"];
  const client = resolveClientAddress(
    req.socket.remoteAddress,
    Array.isArray(forwarded) ? forwarded.join(", ") : forwarded,
    config.proxy.trustedProxies,
  );
  req.headers[CLIENT_ADDRESS_HEADER] = addressBucket(client);
  handler(req, res).catch((err: unknown) => {
    logger.error({ err }, "portal request failed");
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("internal server error");
  });
});
server.keepAliveTimeout = 65_000;

server.listen(config.port, config.host, async () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  // Sign-in links need the portal's public address; with none configured it is where we listen.
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  process.env.NEXTAUTH_URL ??= config.publicBaseUrl ?? `http://${host}:${port}`;
  // Once NEXTAUTH_URL is known, and before the listening line, so whoever waits for that line finds it above.
  if (servePortal) await announceFirstRunLink(gateway.rt.db, logger);
  logger.info(
    {
      url: `http://${config.host}:${port}`,
      database: gateway.rt.db.kind,
      limits: gateway.rt.limitBackend,
      portal: servePortal,
      ...(pendingBuild && { portalBuild: pendingBuild.reason }),
    },
    "gateway listening",
  );
  // Only now, so the build (minutes, both cores) takes nothing from the API's start; not when a signal came first.
  if (pendingBuild && !stopping)
    portalGate = followBuild({
      build: pendingBuild.start(),
      prepare: startNext,
      report: (level, msg, fields = {}) => logger[level](fields, msg),
    });
});

// Writing the buffered usage after the grace period gets this long (the meter retries a database that
// is restarting) before the process gives up and exits 1.
const FLUSH_BOUND_MS = 10_000;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const graceMs = config.shutdownGraceMs;
  logger.info({ signal, graceMs }, "shutting down: draining requests and usage events");
  // What is still open past the grace period (a long stream) is cut: its client sees the stream end,
  // and its usage, metered as far as it went, is written with the rest rather than lost to a hard exit.
  const cut = setTimeout(() => {
    logger.warn("grace period over; closing the connections still open");
    server.closeAllConnections();
  }, graceMs);
  cut.unref();
  const force = setTimeout(() => {
    logger.error("shutdown took too long; exiting");
    process.exit(1);
  }, graceMs + FLUSH_BOUND_MS);
  force.unref();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  clearTimeout(cut);
  await gateway.close();
  logger.info("stopped");
  process.exit(0);
}
// A portal build still running in the background is stopped by its own handlers for these signals, and at
// exit (scripts/portal-build.mjs).
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
