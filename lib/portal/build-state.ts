import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * The portal while `npm start` builds it in the background (scripts/start.mjs, scripts/portal-build.mjs):
 * the API is served from the first second, and portal requests get a small page saying the portal is
 * being built until `next build` has finished and Next has started in this process, or saying that the
 * build failed. A fresh clone's first `next build` takes minutes on a small machine; nobody should wait
 * that long for `/health` or a keyed call.
 */

/** How the background `next build` ended (scripts/portal-build.mjs makes it). */
export type BuildExit = {
  /** Its exit code; null when a signal ended it. */
  code: number | null;
  signal: string | null;
  /** Its last lines of output, for the console only: they may name paths and settings of this machine. */
  tail: string[];
  /** This process stopped it (it is shutting down): nothing went wrong, and nothing is to be reported. */
  stopped: boolean;
  /** How long it ran. */
  ms: number;
};

/** A `next build` running in a child process, as scripts/portal-build.mjs's startPortalBuild returns it. */
export type BackgroundBuild = {
  /** The `next build` process, leader of the process group its workers are in; undefined if it could not start. */
  pid: number | undefined;
  /** Why it was started ("no portal build found", "app/page.tsx is newer than the portal build"). */
  reason: string;
  /** When it started (epoch ms). */
  startedAt: number;
  /** Settles (never rejects) once the build and everything it started have exited. */
  exited: Promise<BuildExit>;
  /** Ends the build and its worker processes; does nothing once it has exited. */
  stop(): void;
};

/**
 * A portal build scripts/start.mjs found needed and left for server.ts to start once it listens: started
 * beside the server's own start (loading its modules, opening and migrating the database), even niced, it
 * made the API's first answer seconds later; and a server that cannot start (its database held by another
 * process) must not rebuild the portal that other process may be serving.
 */
export type PendingBuild = { reason: string; start(): BackgroundBuild };

/**
 * Where start.mjs leaves it. A global, because start.mjs is plain JavaScript run as it is and server.ts is
 * bundled into dist/: no module instance is shared between them, only the process. `Symbol.for`, so
 * scripts/portal-build.mjs names the same key.
 */
export const PENDING_BUILD_KEY = Symbol.for("unified-gateway.portal-pending-build");

/** The build start.mjs left for this process, if any; taken once, so nothing else starts it. */
export function takePendingBuild(): PendingBuild | undefined {
  const holder = globalThis as { [PENDING_BUILD_KEY]?: PendingBuild };
  const pending = holder[PENDING_BUILD_KEY];
  delete holder[PENDING_BUILD_KEY];
  return pending;
}

export type PortalHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * building: `next build` runs. starting: it succeeded and Next is loading it (`prepare()`, seconds).
 * ready: portal requests go to Next. failed: the build failed or Next could not load it; only the API is
 * served until someone fixes it and restarts the server.
 */
export type PortalPhase =
  { name: "building"; since: number } | { name: "starting" } | { name: "ready" } | { name: "failed" };

/** How many seconds a client is asked to wait before asking again, in Retry-After and the page's refresh. */
export const RETRY_AFTER_S = 5;

/** Where followBuild says how the build went: server.ts's log (pino's arguments, the other way round). */
export type Report = (level: "info" | "error", msg: string, fields?: Record<string, unknown>) => void;

/**
 * Follows a background build to its end: when it succeeds, `prepare` starts Next in this process (no restart
 * needed) and its handler takes the portal's requests; when it fails, the gate stays "failed" and the log says
 * why, with the build's exit code and last lines. A class: what server.ts reads changes as the build goes on.
 */
export class PortalGate {
  #phase: PortalPhase;
  #handler: PortalHandler | undefined;
  /** Settles once the phase is "ready" or "failed" (or the build was stopped). */
  readonly settled: Promise<void>;

  constructor(options: {
    build: BackgroundBuild;
    prepare: () => Promise<PortalHandler>;
    report: Report;
    now?: () => number;
  }) {
    this.#phase = { name: "building", since: options.build.startedAt };
    this.settled = options.build.exited.then((exit) => this.#follow(exit, options));
  }

  get phase(): PortalPhase {
    return this.#phase;
  }

  /** Next's request handler once the phase is "ready". */
  get handler(): PortalHandler | undefined {
    return this.#handler;
  }

  async #follow(
    exit: BuildExit,
    { prepare, report, now = Date.now }: { prepare: () => Promise<PortalHandler>; report: Report; now?: () => number },
  ): Promise<void> {
    const seeWhy = "the API is still being served; run `npm run build` to see why, then restart the server";
    const seconds = Math.round(exit.ms / 1000);
    // Stopped by this process on its way out: the server is shutting down, there is nothing to report.
    if (exit.stopped) return;
    if (exit.code !== 0) {
      this.#phase = { name: "failed" };
      const how =
        exit.code !== null
          ? `failed with exit code ${exit.code}`
          : exit.signal
            ? `was ended by ${exit.signal}`
            : "could not be started";
      report("error", `portal: next build ${how} after ${seconds} s; ${seeWhy}`, {
        exitCode: exit.code,
        signal: exit.signal,
        lastLines: exit.tail,
      });
      return;
    }
    this.#phase = { name: "starting" };
    report("info", `portal: built in ${seconds} s; starting it`);
    const preparing = now();
    try {
      this.#handler = await prepare();
    } catch (err) {
      this.#phase = { name: "failed" };
      report("error", `portal: built, but Next could not start it; ${seeWhy}`, { err });
      return;
    }
    this.#phase = { name: "ready" };
    report("info", "portal: ready", { startMs: now() - preparing });
  }
}

/** A PortalGate on `build`. */
export function followBuild(options: ConstructorParameters<typeof PortalGate>[0]): PortalGate {
  return new PortalGate(options);
}

/** What a portal request gets while the portal is not ready: always 503, never cached. */
export type Unavailable = { status: 503; headers: Record<string, string>; body: string };

/** Whether the client asked for JSON (a program, the portal's own fetches) rather than a page. */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  let json = 0;
  let html = 0;
  for (const part of accept.split(",")) {
    const [type = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) || 0 : 1;
    if (type === "application/json" || /^application\/[\w.-]+\+json$/.test(type)) json = Math.max(json, weight);
    if (type === "text/html") html = Math.max(html, weight);
  }
  return json > 0 && json > html;
}

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#222}" +
  "h1{font-size:1.4rem}code{background:#f2f2f2;padding:0 .25em;border-radius:3px}" +
  "@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}code{background:#333}}";

/** A complete page with no external assets: nothing else of the portal can be served yet. */
function page(title: string, paragraphs: string[], refresh: boolean): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...(refresh ? [`<meta http-equiv="refresh" content="${RETRY_AFTER_S}">`] : []),
    `<title>${title}</title><style>${STYLE}</style></head>`,
    `<body><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join("")}</body></html>`,
    "",
  ].join("\n");
}

/**
 * The 503 for a portal request before the portal is ready. Nothing of the build's output or reason is in it:
 * the page is public, and those name files and settings of this machine (they are on the console).
 */
export function unavailable(
  phase: Exclude<PortalPhase, { name: "ready" }>,
  accept: string | undefined,
  now = Date.now(),
): Unavailable {
  const failed = phase.name === "failed";
  const headers: Record<string, string> = {
    "cache-control": "no-store",
    // The body depends on Accept: a cache in between must not give a browser the JSON.
    vary: "Accept",
  };
  // A failed build does not come back by waiting: no Retry-After, no refresh, until someone restarts the server.
  if (!failed) headers["retry-after"] = String(RETRY_AFTER_S);
  const sentence = failed
    ? "The portal could not be built, so this server is serving only the API. Run `npm run build` in the gateway's directory to see why, then restart the server."
    : "The portal is being built (the first start after an install or an update takes a few minutes). The API is already being served; try again shortly.";
  if (wantsJson(accept)) {
    return {
      status: 503,
      headers: { ...headers, "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ error: sentence, portal: phase.name }),
    };
  }
  const body = failed
    ? page(
        "The portal could not be built",
        [
          "This server is serving only the API: the portal&rsquo;s build failed.",
          "Run <code>npm run build</code> in the gateway&rsquo;s directory to see why, then restart the server.",
        ],
        false,
      )
    : page(
        "The portal is being built",
        [
          "The first start after an install or an update builds the portal, which takes a few minutes." +
            (phase.name === "building"
              ? ` It has been building for ${Math.max(0, Math.round((now - phase.since) / 1000))} s.`
              : " It is built and starting."),
          `The API is already being served. This page reloads itself every ${RETRY_AFTER_S} seconds.`,
        ],
        true,
      );
  return { status: 503, headers: { ...headers, "content-type": "text/html; charset=utf-8" }, body };
}

/** Answers a portal request with `unavailable`'s 503 (no body for HEAD). */
export function sendUnavailable(req: IncomingMessage, res: ServerResponse, phase: PortalPhase): void {
  if (phase.name === "ready") throw new Error("the portal is ready: its handler answers");
  const answer = unavailable(phase, req.headers.accept);
  res.writeHead(answer.status, { ...answer.headers, "content-length": Buffer.byteLength(answer.body) });
  res.end(req.method === "HEAD" ? undefined : answer.body);
}
