import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/client.ts";
import { OPERATOR_FILE, readOperatorEndpoint } from "../lib/gateway/keys/operator.ts";
import { backendEnv, databaseBackends } from "./support/backends.ts";
import { ensureNextBuild } from "./support/next-build.ts";
import { runKeysCli, startServerProcess, type ServerProcess } from "./support/server-process.ts";

type Created = { id: string; key: string; prefix: string };

// Each test starts server.ts through tsx, which on a 2-core machine running another test file beside it
// took past the default 30 s (when each PGlite start also ran initdb and every migration, before the template).
describe.each(databaseBackends)("server.ts process on %s", { timeout: 120_000 }, (backend) => {
  const running: ServerProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const s of running.splice(0)) await s.stop("SIGKILL");
    for (const c of cleanups.splice(0)) await c();
  });

  async function setup() {
    const b = await backendEnv(backend);
    cleanups.push(b.cleanup);
    // API-only: the portal's build is exercised in portal.test.ts.
    return { ...b.env, SERVE_PORTAL: "false" };
  }

  it("keys CLI works with no server running, and the server then accepts the key by all three methods", async () => {
    const env = await setup();
    const made = await runKeysCli(
      ["create", "--name", "offline", "--email", "dev@example.com", "--minute", "50", "--scopes", "data,llm"],
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.lines).toHaveLength(1);
    const created = made.lines[0] as Created;
    expect(Object.keys(created).sort()).toEqual(["id", "key", "prefix"]);
    expect(created.key).toMatch(/^sk_[0-9A-Za-z]{43}$/);

    const listed = await runKeysCli(["list"], env);
    expect(listed.lines).toEqual([
      expect.objectContaining({ id: created.id, email: "dev@example.com", scopes: ["data", "llm"] }),
    ]);
    expect(JSON.stringify(listed.lines)).not.toContain(created.key);

    const server = await startServerProcess(env);
    running.push(server);
    const inits: RequestInit[] = [
      { headers: { "X-API-Key": created.key } },
      { headers: { Authorization: `Bearer ${created.key}` } },
    ];
    for (const init of inits) {
      expect((await fetch(`${server.url}/v1/key`, init)).status).toBe(200);
    }
    const byQuery = await fetch(`${server.url}/v1/key?api_key=${created.key}`);
    expect(byQuery.status).toBe(200);
    expect((await byQuery.json()).limits.minute).toBe(50);
    expect(server.output()).not.toContain(created.key);
  });

  it("keys CLI goes through the running server: new keys work and revocations bite at once", async () => {
    const env = await setup();
    const server = await startServerProcess(env);
    running.push(server);
    const made = await runKeysCli(["create", "--name", "online"], env);
    expect(made.code, made.stderr).toBe(0);
    const created = made.lines[0] as Created;
    const headers = { "X-API-Key": created.key };
    expect((await fetch(`${server.url}/v1/key`, { headers })).status).toBe(200);

    const revoked = await runKeysCli(["revoke", created.id], env);
    expect(revoked.lines).toEqual([{ id: created.id, status: "revoked" }]);
    const after = await fetch(`${server.url}/v1/key`, { headers });
    expect(after.status).toBe(401);
    expect((await after.json()).error).toMatch(/revoked/);

    const missing = await runKeysCli(["revoke", "key_nope"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no key with id key_nope/);
    expect(server.output()).not.toContain(created.key);
  });

  it("refuses a body over MAX_BODY_BYTES with 413 over a real socket, declared or chunked", async () => {
    const env = { ...(await setup()), MAX_BODY_BYTES: "2000" };
    const server = await startServerProcess(env);
    running.push(server);
    const { key } = (await runKeysCli(["create", "--name", "big"], env)).lines[0] as Created;
    const headers = { "content-type": "application/json", "X-API-Key": key };
    const big = JSON.stringify({ data: { text: "x".repeat(5000) } });
    const declared = await fetch(`${server.url}/v1/utils/convert`, { method: "POST", headers, body: big });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error).toMatch(/limit is 2000 bytes/);
    const chunked = await fetch(`${server.url}/v1/utils/convert`, {
      method: "POST",
      headers,
      body: new Blob([big]).stream(),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const small = await fetch(`${server.url}/v1/utils/convert`, {
      method: "POST",
      headers,
      body: JSON.stringify({ data: { a: 1 } }),
    });
    expect(small.status).toBe(200);
  });

  it("writes exactly one usage event per request served, even when stopped by SIGTERM right after", async () => {
    const env = { ...(await setup()), METER_FLUSH_MS: "60000" };
    const server = await startServerProcess(env);
    running.push(server);
    const created = (await runKeysCli(["create", "--name", "metered", "--minute", "1000"], env)).lines[0] as Created;
    const N = 137;
    const headers = { "X-API-Key": created.key };
    let served = 0;
    for (let i = 0; i < N; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, N - i) }, () =>
          fetch(`${server.url}/v1/key`, { headers }).then((r) => r.status),
        ),
      );
      served += batch.filter((s) => s === 200).length;
    }
    expect(served).toBe(N);
    expect(await server.stop("SIGTERM")).toBe(0);
    running.splice(0);

    const db = await openDatabase(loadConfig(env));
    try {
      expect(await db.prisma.usageEvent.count({ where: { keyId: created.id } })).toBe(N);
      const rollups = await db.prisma.usageDaily.findMany({ where: { keyId: created.id } });
      expect(rollups.reduce((n, r) => n + r.requests, 0)).toBe(N);
    } finally {
      await db.close();
    }
  });
});

// Several server processes per test on a shared 2-core machine: more than the default 30 s.
describe("one PGlite directory, one process", { timeout: 180_000 }, () => {
  const running: ServerProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const s of running.splice(0)) await s.stop("SIGKILL");
    for (const c of cleanups.splice(0)) await c();
  });

  async function setup() {
    const b = await backendEnv("pglite");
    cleanups.push(b.cleanup);
    return { env: { ...b.env, SERVE_PORTAL: "false" }, dataDir: b.dataDir };
  }

  it("refuses a second server at once, naming the directory and the holder, and the CLI keeps reaching the first", async () => {
    const { env, dataDir } = await setup();
    const first = await startServerProcess(env);
    running.push(first);
    const published = fs.readFileSync(path.join(dataDir, OPERATOR_FILE), "utf8");
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, "pglite")).mode & 0o777).toBe(0o700);

    const second = await startServerProcess(env).then(
      (s) => (running.push(s), "started"),
      (err: Error) => err.message,
    );
    expect(second).toMatch(/server exited with 1/);
    expect(second).toContain(`${path.join(dataDir, "pglite")} is in use: process ${first.proc.pid}`);
    expect(second).toMatch(/operator endpoint/);
    // The second process neither replaced the first's operator.json nor removed it on the way out.
    expect(fs.readFileSync(path.join(dataDir, OPERATOR_FILE), "utf8")).toBe(published);

    for (const name of ["one", "two"]) {
      const made = await runKeysCli(["create", "--name", name], env);
      expect(made.code, made.stderr).toBe(0);
      const { key } = made.lines[0] as Created;
      expect((await fetch(`${first.url}/v1/key`, { headers: { "X-API-Key": key } })).status).toBe(200);
    }
  });

  it("keys CLI refuses to open a database a live server holds when its endpoint is gone, and prints no key", async () => {
    const { env, dataDir } = await setup();
    const server = await startServerProcess(env);
    running.push(server);
    fs.rmSync(path.join(dataDir, OPERATOR_FILE));
    const made = await runKeysCli(["create", "--name", "orphan"], env);
    expect(made.code).toBe(1);
    expect(made.lines).toEqual([]);
    expect(made.stderr).toMatch(
      new RegExp(`held by process ${server.proc.pid}, whose operator endpoint .* is missing or not answering`),
    );
  });

  it("takes over the lock and the endpoint file a killed server left behind", async () => {
    const { env, dataDir } = await setup();
    const killed = await startServerProcess(env);
    expect(await killed.stop("SIGKILL")).toBe(null);
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(true);
    const offline = await runKeysCli(["create", "--name", "after a crash"], env);
    expect(offline.code, offline.stderr).toBe(0);
    const next = await startServerProcess(env);
    running.push(next);
    expect(readOperatorEndpoint(dataDir)?.pid).toBe(next.proc.pid);
    const { key } = offline.lines[0] as Created;
    expect((await fetch(`${next.url}/v1/key`, { headers: { "X-API-Key": key } })).status).toBe(200);
  });
});

// What `npm start` runs: the esbuild bundle in dist/ on plain node, with no transpiler in the process.
// Bundling, initdb and every migration in a fresh directory, and a CLI process: on a CI machine busy with
// the browser suite beside this one, that took over a minute. The limits are for a hang, not for speed.
describe("compiled server (dist/server.mjs)", { timeout: 300_000 }, () => {
  const running: ServerProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const s of running.splice(0)) await s.stop("SIGKILL");
    for (const c of cleanups.splice(0)) await c();
  });

  /** Runs a node script to its end, in the project root. */
  function runNode(args: string[], env: NodeJS.ProcessEnv = process.env) {
    return spawnSync(process.execPath, args, { encoding: "utf8", env, timeout: 120_000 });
  }

  /** The pids of a process's children, from every thread's list (Linux). */
  function childrenOf(pid: number): string[] {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" "))
      .filter(Boolean);
  }

  it("rebuilds the portal when a source is newer than its build (after a git pull)", () => {
    ensureNextBuild();
    const staleness = `import { portalStaleReason } from "./scripts/portal-build.mjs"; console.log(portalStaleReason());`;
    const buildId = ".next/BUILD_ID";
    const built = fs.statSync(buildId).mtime;
    try {
      fs.utimesSync(buildId, new Date(0), new Date(0));
      expect(runNode(["--input-type=module", "-e", staleness]).stdout).toMatch(/ is newer than the portal build$/m);
    } finally {
      fs.utimesSync(buildId, built, built);
    }
    const now = new Date();
    fs.utimesSync(buildId, now, now);
    expect(runNode(["--input-type=module", "-e", staleness]).stdout.trim()).toBe("null");
    fs.utimesSync(buildId, built, built);
  });

  it.runIf(process.platform === "linux")(
    "builds, serves keyed and worker-pool routes as one node process without tsx, and drains on SIGTERM",
    async () => {
      const build = runNode(["scripts/build-server.mjs"]);
      expect(build.status, build.stderr).toBe(0);
      // npm start rebuilds only when a source is newer than the last build.
      const staleness = `import { staleReason } from "./scripts/build-server.mjs"; console.log(staleReason());`;
      expect(runNode(["--input-type=module", "-e", staleness]).stdout.trim()).toBe("null");
      const inputs = "dist/inputs.json";
      const built = fs.statSync(inputs).mtime;
      fs.utimesSync(inputs, new Date(0), new Date(0));
      expect(runNode(["--input-type=module", "-e", staleness]).stdout).toMatch(/ changed$/m);
      fs.utimesSync(inputs, built, built);

      // An empty directory: the compiled server also runs initdb (in its child) and every migration.
      const b = await backendEnv("pglite", "memory", { empty: true });
      cleanups.push(b.cleanup);
      const env = { ...b.env, SERVE_PORTAL: "false" };
      const server = await startServerProcess(env, "dist/server.mjs");
      running.push(server);
      const pid = server.proc.pid!;
      const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      expect(commandLine.slice(1)).toEqual(["dist/server.mjs"]);
      expect(fs.readFileSync(`/proc/${pid}/environ`, "utf8")).not.toMatch(/NODE_OPTIONS=[^\0]*tsx/);

      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
      // The bundle carries package.json's version (lib/version.ts): dist/ has no package.json of its own.
      const { version } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
      expect(await health.json()).toEqual({ status: "ok", version });
      const made = await runKeysCli(["create", "--name", "compiled"], env);
      expect(made.code, made.stderr).toBe(0);
      const { key } = made.lines[0] as Created;
      const headers = { "X-API-Key": key, "content-type": "application/json" };
      expect((await fetch(`${server.url}/v1/key`, { headers })).status).toBe(200);
      // Resizing runs on the worker pool, whose threads start on dist/heavy-tasks.mjs.
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "red" } })
        .png()
        .toBuffer();
      const resized = await fetch(`${server.url}/v1/utils/images/resize`, {
        method: "POST",
        headers,
        body: JSON.stringify({ image: png.toString("base64"), width: 20 }),
      });
      expect(resized.status, await resized.clone().text()).toBe(200);
      expect(await resized.json()).toMatchObject({ format: "png", width: 20, height: 15 });
      // tsx, in the process or in a worker thread, would have started its esbuild service as a child.
      expect(childrenOf(pid)).toEqual([]);

      expect(await server.stop("SIGTERM")).toBe(0);
      running.splice(0);
      expect(server.output()).toMatch(/"msg":"stopped"/);

      // `npm run worker`'s bundle loads too; with no REDIS_URL it says so and exits.
      const { REDIS_URL: _redis, DATABASE_URL: _db, ...inherited } = process.env;
      const worker = runNode(["dist/worker.mjs"], { ...inherited, ...env });
      expect(worker.status).toBe(1);
      expect(worker.stderr).toMatch(/REDIS_URL is not set/);
    },
  );
});
