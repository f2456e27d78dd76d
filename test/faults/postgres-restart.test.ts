import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../lib/db/client.ts";
import { createKey } from "../../lib/gateway/keys/key-changes.ts";
import { tempDir } from "../support/backends.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { havePostgresBinaries, LOAD_MS, report, runLoad, sleep, startPrivatePostgres } from "./fault-support.ts";

// The gateway's own PostgreSQL stopped hard (pg_ctl -m immediate) and started again
// under keyed load. A private cluster, so the shared test server is never touched.
describe.runIf(havePostgresBinaries)("PostgreSQL restarted mid-load", { timeout: 120_000 }, () => {
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A private cluster, a server on it and a key the server has loaded. */
  async function setup() {
    const pg = await startPrivatePostgres();
    cleanups.push(() => pg.destroy());
    const env = {
      DATA_DIR: tempDir(),
      DATABASE_URL: pg.url,
      SERVE_PORTAL: "false",
      // "Nothing lost" is checked row by row: every request must get its request-log row.
      REQUEST_LOG_ROWS_PER_KEY_SECOND: "0",
      // Flushes (and fails) several times during the outage, so the retry path is what writes the events.
      METER_FLUSH_MS: "200",
    };
    const server: ServerProcess = await startServerProcess(env);
    cleanups.push(() => server.stop("SIGKILL"));
    const admin = await openDatabase({ databaseUrl: pg.url, dataDir: env.DATA_DIR });
    const { key, id } = await createKey(
      admin,
      { name: "pg-restart", day: 10_000_000, minute: 1_000_000, concurrency: 100 },
      "test",
    );
    await admin.close();
    // The server learns of the key on its next refresh (KEY_REFRESH_MS, 500 ms).
    await sleep(1_000);
    return { pg, env, server, key, id };
  }

  async function usageOf(databaseUrl: string, dataDir: string, id: string) {
    const db = await openDatabase({ databaseUrl, dataDir });
    try {
      const written = await db.prisma.usageEvent.count({ where: { keyId: id } });
      const [row] = await db.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
        `SELECT count(*) - count(DISTINCT request_id) AS n FROM usage_events WHERE key_id = $1`,
        id,
      );
      return { written, duplicates: Number(row?.n ?? 0) };
    } finally {
      await db.close();
    }
  }

  it("keyed requests keep working from the key cache, every usage event is written once it is back, and a SIGTERM during an outage waits for it", async () => {
    const { pg, env, server, key, id } = await setup();

    // A key this instance has never seen cannot be checked while the database is away: 503, not 500.
    const admin = await openDatabase({ databaseUrl: pg.url, dataDir: env.DATA_DIR });
    const unseen = await createKey(admin, { name: "unseen" }, "test");
    await admin.close();
    let unseenAnswer = "";
    let usageAnswer = "";
    let downFor = 0;
    const load = await runLoad({
      url: server.url,
      key,
      durationMs: LOAD_MS * 3,
      concurrency: 4,
      at: [
        [LOAD_MS, () => pg.stop()],
        [
          LOAD_MS + 500,
          async () => {
            const res = await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": unseen.key } });
            unseenAnswer = `${res.status} retry-after=${res.headers.get("retry-after")} ${await res.text()}`;
          },
        ],
        [
          LOAD_MS + 700,
          async () => {
            // What reads the database itself cannot answer, and says so.
            const res = await fetch(`${server.url}/v1/usage`, { headers: { "X-API-Key": key } });
            usageAnswer = `${res.status} retry-after=${res.headers.get("retry-after")} ${await res.text()}`;
          },
        ],
        [
          LOAD_MS * 2,
          () => {
            downFor = LOAD_MS;
            pg.start();
          },
        ],
      ],
    });
    const pendingAfterLoad = await pendingEvents(server);

    // Then down again, more requests, and SIGTERM while it is down: it comes back 1.5 s into the shutdown.
    pg.stop();
    const N = 50;
    const statuses = await Promise.all(
      Array.from({ length: N }, () =>
        fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": key } }).then((r) => r.status),
      ),
    );
    const exited = server.stop("SIGTERM");
    await sleep(1_500);
    pg.start();
    const code = await exited;

    const { written, duplicates } = await usageOf(pg.url, env.DATA_DIR, id);
    const errors = server.output().match(/writing usage events failed; will retry/g)?.length ?? 0;
    report("PostgreSQL stopped (immediate) and started again mid-load, then SIGTERM while it is down", {
      clients: { ...load.seen, slowestMs: load.slowestMs },
      "database down for": `~${downFor} ms`,
      "a key never seen here, during the outage": unseenAnswer,
      "GET /v1/usage during the outage": usageAnswer,
      "failed usage writes (retried)": errors,
      "events still buffered when the load ended": pendingAfterLoad,
      "requests during the second outage": statuses.every((s) => s === 200) ? `${N} × 200` : statuses,
      "exit after SIGTERM (database back 1.5 s later)": code,
      written,
      duplicates,
      lost: load.answered + N + 1 - written,
    });
    expect(Object.keys(load.seen)).toEqual(["200"]);
    expect(errors).toBeGreaterThan(0);
    expect(unseenAnswer).toMatch(/^503 retry-after=5 \{"error":"API keys cannot be checked right now/);
    expect(usageAnswer).toBe('503 retry-after=5 {"error":"the database is unreachable; try again shortly"}');
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(code).toBe(0);
    // The load, the 50, and the /v1/usage call (metered with its 503).
    expect(written).toBe(load.answered + N + 1);
    expect(duplicates).toBe(0);
  });
});

/** The meter's backlog, from the server's own metrics. */
async function pendingEvents(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/gateway_usage_events_buffered (\d+)/.exec(text)?.[1] ?? NaN);
}
