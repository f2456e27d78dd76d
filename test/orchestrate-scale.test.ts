import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../lib/db/client.ts";
import { createKey } from "../lib/gateway/keys/key-changes.ts";
import { startFakeWikipedia, type FakeSource } from "./fakes/data-sources.ts";
import { startFakeResearchLlm, type FakeRequest, type FakeResearchLlm, type FakeTurn } from "./fakes/research-llm.ts";
import { databaseBackends, freshPostgres, tempDir } from "./support/backends.ts";
import { startServerProcess, startWorkerProcess, type ServerProcess } from "./support/server-process.ts";
import { report } from "./faults/fault-support.ts";

const sharedBackends = Boolean(process.env.REDIS_URL) && databaseBackends.includes("postgres");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The deployment DESIGN.md scales out to, as processes: two web instances that only enqueue
 * (JOB_WORKERS=separate) and `npm run worker` processes, on one PostgreSQL and one Redis. A task
 * started on A is read, streamed and cancelled on B; a worker killed mid-task leaves no task running.
 */
describe.runIf(sharedBackends)("research tasks across instances: two web processes, BullMQ workers", () => {
  let drop: () => Promise<void>;
  let db: Database;
  let llm: FakeResearchLlm;
  let wiki: FakeSource;
  let script: ((req: FakeRequest) => FakeTurn | undefined) | undefined;
  let env: Record<string, string>;
  let a: ServerProcess;
  let b: ServerProcess;
  const workers: ServerProcess[] = [];
  let key: string;

  beforeAll(async () => {
    const pg = await freshPostgres();
    drop = pg.drop;
    [llm, wiki] = await Promise.all([
      startFakeResearchLlm({ key: "xai-test", script: (req) => script?.(req) }),
      startFakeWikipedia(),
    ]);
    env = {
      DATABASE_URL: pg.url,
      REDIS_URL: process.env.REDIS_URL!,
      JOB_QUEUE: `test-research-${randomBytes(4).toString("hex")}`,
      JOB_WORKERS: "separate",
      // A worker's lock lasts this long between renewals: at 1 s a loaded CI machine stalled the retrying
      // worker too, and a second stall fails the task by design.
      JOB_STALLED_MS: "3000",
      SERVE_PORTAL: "false",
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: llm.url,
      UPSTREAM_WIKIPEDIA_URL: wiki.url,
      KEY_REFRESH_MS: "200",
    };
    // A first, alone, so its migrations are applied before the others start.
    a = await startServerProcess({ ...env, DATA_DIR: tempDir() });
    b = await startServerProcess({ ...env, DATA_DIR: tempDir() });
    db = await openDatabase({ databaseUrl: pg.url, dataDir: tempDir() });
    ({ key } = await createKey(db, { name: "scale", minute: 1000, concurrency: 50 }, "test"));
    await sleep(500);
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop(), ...workers.map((w) => w.stop("SIGKILL"))]);
    await db?.close();
    await Promise.allSettled([llm?.close(), wiki?.close()]);
    await drop?.();
  });

  const call = (server: ServerProcess, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { "X-API-Key": key, ...init.headers } });
  const start = async (server: ServerProcess, numAgents = 2) => {
    const res = await call(server, "/v1/orchestrate/dream-cascade?async=true", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task: "Scale-out research", num_agents: numAgents }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { task_id: string }).task_id;
  };
  const status = async (server: ServerProcess, id: string) =>
    (await (await call(server, `/v1/orchestrate/${id}/status`)).json()) as { status: string; result: unknown };
  async function until(server: ServerProcess, id: string, statuses: string[], timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const s = await status(server, id);
      if (statuses.includes(s.status)) return s;
      if (Date.now() > deadline) throw new Error(`${id} still ${s.status}`);
      await sleep(100);
    }
  }
  async function streamTypes(server: ServerProcess, id: string): Promise<string[]> {
    const text = await (await call(server, `/v1/orchestrate/${id}/stream`)).text();
    return text
      .split("\n\n")
      .filter((chunk) => chunk.startsWith("data: "))
      .map((chunk) => (JSON.parse(chunk.slice(6)) as { type: string }).type);
  }

  it("web instances only enqueue: a task waits until a worker process takes it, then is read on the other instance", async () => {
    script = undefined;
    const id = await start(a);
    await sleep(1500);
    expect((await status(b, id)).status).toBe("pending");

    workers.push(await startWorkerProcess({ ...env, DATA_DIR: tempDir() }));
    const done = await until(b, id, ["completed", "failed"]);
    expect(done.status, `the task ended ${JSON.stringify(done).slice(0, 2000)}`).toBe("completed");
    const types = await streamTypes(b, id);
    expect(types[0]).toBe("subtasks_ready");
    expect(types).toContain("synthesis_complete");
    expect(types.at(-1)).toBe("complete");
  }, 120_000);

  it("streams on B what the worker does for a task started on A, live, and cancels it from B", async () => {
    script = (req) => (req.role === "worker" ? { content: "slow findings", delayMs: 20_000 } : undefined);
    const abortedBefore = llm.aborted();
    const from = llm.requests.length;
    const id = await start(a);
    const res = await call(b, `/v1/orchestrate/${id}/stream`);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const text = res.text();
    await until(a, id, ["running"]);
    await expect
      .poll(() => llm.requests.slice(from).filter((r) => r.role === "worker").length, { timeout: 10_000 })
      .toBe(2);
    const cancel = await call(b, `/v1/orchestrate/${id}`, { method: "DELETE" });
    expect(await cancel.json()).toMatchObject({ status: "cancelled", message: "Cancelled" });
    // The worker process aborts its calls: the fake provider sees the connections close.
    await expect.poll(() => llm.aborted() - abortedBefore, { timeout: 10_000 }).toBeGreaterThan(0);
    const messages = (await text).split("\n\n").filter((c) => c.startsWith("data: "));
    const types = messages.map((c) => (JSON.parse(c.slice(6)) as { type: string }).type);
    expect(types).toContain("agent_start");
    expect(types.at(-1)).toBe("cancelled");
    expect((await status(a, id)).status).toBe("cancelled");
  }, 120_000);

  it("a worker killed mid-task leaves no task running: another worker takes it up after the stalled check", async () => {
    script = (req) => (req.role === "worker" ? { content: "slow findings", delayMs: 4000 } : undefined);
    const id = await start(a, 1);
    await until(b, id, ["running"]);
    await sleep(300);
    await workers[0]!.stop("SIGKILL");
    script = undefined;
    workers.push(await startWorkerProcess({ ...env, DATA_DIR: tempDir() }));
    const done = await until(b, id, ["completed", "failed"], 60_000);
    const events = await streamTypes(a, id);
    // One of the fault scenarios (`npm run test:faults`): what the client saw, what was lost.
    report("a BullMQ worker killed (SIGKILL) mid-task", {
      clients: `task ${done.status}, events: ${events.join(", ")}`,
      lost: done.status === "completed" ? 0 : "the task",
    });
    expect(done.status, `the task ended ${JSON.stringify(done).slice(0, 2000)}`).toBe("completed");
    expect(events).toContain("restarted");
  }, 120_000);
});
