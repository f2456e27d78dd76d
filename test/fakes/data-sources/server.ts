import { Hono } from "hono";
import { listen } from "../../support/listen.ts";

export type FakeSource = {
  url: string;
  hits: string[];
  /** Each request's traceparent header (undefined when it had none), in the order of `hits`. */
  traceparents: (string | undefined)[];
  setDelay(ms: number): void;
  setStatus(status: number | undefined): void;
  /** Answer 200 with a body that is neither the JSON nor the XML the service documents. */
  setGarbage(on: boolean): void;
  /** Requests being answered now, and the most at once since a test last set `peak` to 0. */
  inFlight: { now: number; peak: number };
  close(): Promise<void>;
};

/** Serves app on a free local port behind the hooks every fake upstream shares: hit log, delay, forced status, garbage. */
export async function startFakeServer(
  app: Hono,
  hits: string[] = [],
  state: { delay: number; status?: number; garbage?: boolean } = { delay: 0 },
): Promise<FakeSource> {
  const outer = new Hono();
  const inFlight = { now: 0, peak: 0 };
  const traceparents: (string | undefined)[] = [];
  outer.use(async (_c, next) => {
    inFlight.peak = Math.max(inFlight.peak, ++inFlight.now);
    try {
      await next();
    } finally {
      inFlight.now -= 1;
    }
  });
  outer.use(async (c, next) => {
    hits.push(`${c.req.path}${new URL(c.req.url).search}`);
    traceparents.push(c.req.header("traceparent"));
    if (state.delay) await new Promise((r) => setTimeout(r, state.delay));
    if (state.status)
      return c.text(
        "failure requested by test",
        state.status as 500,
        state.status === 429 ? { "retry-after": "0" } : {},
      );
    if (state.garbage) return c.text('<<< truncated {"oops', 200);
    await next();
  });
  outer.route("/", app);
  const { url, close } = await listen(outer.fetch);
  return {
    url,
    hits,
    traceparents,
    setDelay: (ms) => (state.delay = ms),
    setStatus: (status) => (state.status = status),
    setGarbage: (on) => (state.garbage = on),
    inFlight,
    close,
  };
}
