import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { PENDING_BUILD_KEY as SCRIPT_KEY, startPortalBuild } from "../../scripts/portal-build.mjs";
import {
  followBuild,
  PENDING_BUILD_KEY,
  RETRY_AFTER_S,
  takePendingBuild,
  unavailable,
  type BackgroundBuild,
  type BuildExit,
  type PortalHandler,
  type Report,
} from "./build-state.ts";

/** A background build the test ends when it likes. */
function fakeBuild(startedAt = 1_000) {
  let end!: (exit: BuildExit) => void;
  const exited = new Promise<BuildExit>((resolve) => (end = resolve));
  const build: BackgroundBuild = { pid: 1234, reason: "no portal build found", startedAt, exited, stop: () => {} };
  const exit = (fields: Partial<BuildExit>) =>
    end({ code: 0, signal: null, tail: [], stopped: false, ms: 90_000, ...fields });
  return { build, exit };
}

function recorder() {
  const lines: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
  const report: Report = (level, msg, fields) => lines.push({ level, msg, fields });
  return { lines, report };
}

const handler: PortalHandler = async () => {};

describe("followBuild", () => {
  it("is building until the build ends, starting while Next prepares, then ready with Next's handler", async () => {
    const { build, exit } = fakeBuild();
    const { lines, report } = recorder();
    let prepared!: (h: PortalHandler) => void;
    const gate = followBuild({ build, report, prepare: () => new Promise((resolve) => (prepared = resolve)) });
    expect(gate.phase).toEqual({ name: "building", since: 1_000 });
    expect(gate.handler).toBeUndefined();

    exit({ code: 0, ms: 123_400 });
    await new Promise((r) => setImmediate(r));
    expect(gate.phase).toEqual({ name: "starting" });
    expect(lines.map((l) => l.msg)).toEqual(["portal: built in 123 s; starting it"]);

    prepared(handler);
    await gate.settled;
    expect(gate.phase).toEqual({ name: "ready" });
    expect(gate.handler).toBe(handler);
    expect(lines.at(-1)).toMatchObject({ level: "info", msg: "portal: ready" });
  });

  it("fails with the exit code and the build's last lines in the log, and never starts Next", async () => {
    const { build, exit } = fakeBuild();
    const { lines, report } = recorder();
    let prepares = 0;
    const gate = followBuild({ build, report, prepare: async () => (prepares++, handler) });
    exit({ code: 1, ms: 40_000, tail: ["Type error: nope", "Next.js build worker exited with code: 1"] });
    await gate.settled;
    expect(gate.phase).toEqual({ name: "failed" });
    expect(prepares).toBe(0);
    expect(lines).toEqual([
      {
        level: "error",
        msg: "portal: next build failed with exit code 1 after 40 s; the API is still being served; run `npm run build` to see why, then restart the server",
        fields: {
          exitCode: 1,
          signal: null,
          lastLines: ["Type error: nope", "Next.js build worker exited with code: 1"],
        },
      },
    ]);
  });

  it("names the signal of a build killed from outside, and fails when Next cannot start the build", async () => {
    const killed = fakeBuild();
    const k = recorder();
    const gate = followBuild({ build: killed.build, report: k.report, prepare: async () => handler });
    killed.exit({ code: null, signal: "SIGKILL" });
    await gate.settled;
    expect(gate.phase.name).toBe("failed");
    expect(k.lines[0]!.msg).toMatch(/^portal: next build was ended by SIGKILL after 90 s;/);

    const built = fakeBuild();
    const b = recorder();
    const broken = followBuild({
      build: built.build,
      report: b.report,
      prepare: () => Promise.reject(new Error("Could not find a production build")),
    });
    built.exit({ code: 0 });
    await broken.settled;
    expect(broken.phase.name).toBe("failed");
    expect(broken.handler).toBeUndefined();
    expect(b.lines.at(-1)).toMatchObject({ level: "error", msg: expect.stringMatching(/Next could not start it/) });
  });

  it("says nothing of a build this process stopped on its way out", async () => {
    const { build, exit } = fakeBuild();
    const { lines, report } = recorder();
    const gate = followBuild({ build, report, prepare: async () => handler });
    exit({ code: 143, stopped: true });
    await gate.settled;
    expect(lines).toEqual([]);
    expect(gate.phase.name).toBe("building");
  });
});

describe("unavailable", () => {
  const building = { name: "building", since: 10_000 } as const;

  it("is a self-contained page that refreshes itself, 503, Retry-After 5, never cached", () => {
    const answer = unavailable(building, "text/html,application/xhtml+xml,*/*;q=0.8", 52_000);
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatchObject({
      "retry-after": String(RETRY_AFTER_S),
      "cache-control": "no-store",
      "content-type": "text/html; charset=utf-8",
      vary: "Accept",
    });
    expect(answer.body).toContain('<meta http-equiv="refresh" content="5">');
    expect(answer.body).toContain("The portal is being built");
    expect(answer.body).toContain("building for 42 s");
    // Nothing to fetch: no scripts, stylesheets, images or fonts from anywhere.
    expect(answer.body).not.toMatch(/<script|<link|<img|src=|url\(|@import/i);
  });

  it("is JSON for a client that asks for JSON", () => {
    for (const accept of ["application/json", "application/problem+json", "text/html;q=0.5, application/json"]) {
      const answer = unavailable(building, accept);
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/being built/), portal: "building" });
    }
    for (const accept of [undefined, "*/*", "text/html, application/json"])
      expect(unavailable(building, accept).headers["content-type"]).toMatch(/^text\/html/);
  });

  it("says the build failed and to run `npm run build`, without asking anyone to wait", () => {
    const page = unavailable({ name: "failed" }, "text/html");
    expect(page.status).toBe(503);
    expect(page.body).toContain("<code>npm run build</code>");
    expect(page.body).toMatch(/could not be built/);
    expect(page.body).not.toContain("http-equiv");
    expect(page.headers["retry-after"]).toBeUndefined();
    expect(page.headers["cache-control"]).toBe("no-store");
    const json = JSON.parse(unavailable({ name: "failed" }, "application/json").body);
    expect(json).toEqual({ error: expect.stringContaining("Run `npm run build`"), portal: "failed" });
  });
});

describe("takePendingBuild", () => {
  it("takes what start.mjs left under the key scripts/portal-build.mjs names, once", () => {
    expect(SCRIPT_KEY).toBe(PENDING_BUILD_KEY);
    const pending = { reason: "no portal build found", start: () => fakeBuild().build };
    (globalThis as Record<symbol, unknown>)[SCRIPT_KEY] = pending;
    expect(takePendingBuild()).toBe(pending);
    expect(takePendingBuild()).toBeUndefined();
  });
});

// scripts/portal-build.mjs against a stand-in for `next build`: a node script that prints, forks a worker
// as Next does, and exits or waits as told.
describe.runIf(process.platform !== "win32")("startPortalBuild", { timeout: 30_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-build-"));
  const fakeNext = path.join(dir, "fake-next.mjs");
  fs.writeFileSync(
    fakeNext,
    `import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
const [mode] = process.argv.slice(2);
const worker = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
console.log("pids " + process.pid + " " + worker.pid + " nice " + os.getPriority());
fs.writeFileSync(${JSON.stringify(dir)} + "/started-" + process.pid, "");
if (mode === "fail") { for (let i = 1; i <= 30; i++) console.log("line " + i); console.error("\\u001b[31mError: boom\\u001b[39m"); worker.kill(); process.exit(1); }
if (mode === "ok") { worker.kill(); process.exit(0); }
setInterval(() => {}, 1000);
`,
  );
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const spawned: number[] = [];
  afterEach(() => {
    for (const pid of spawned.splice(0))
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
  });
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const gone = async (pids: number[]) => {
    for (let i = 0; i < 50 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    return pids.filter(alive);
  };
  const pidsIn = (line: string | undefined) => {
    const [, build, worker] = /pids (\d+) (\d+)/.exec(line ?? "") ?? [];
    return [Number(build), Number(worker)];
  };

  it("says it is building, and hands over the exit code and the last 25 lines without colours", async () => {
    const said: string[] = [];
    const failing = startPortalBuild("no portal build found", {
      say: (l) => said.push(l),
      command: [fakeNext, "fail"],
    });
    expect(said).toEqual([expect.stringMatching(/^portal: building \(no portal build found; a few minutes\)…/)]);
    const exit = await failing.exited;
    expect(exit).toMatchObject({ code: 1, signal: null, stopped: false });
    expect(exit.tail).toHaveLength(25);
    expect(exit.tail.at(-1)).toBe("Error: boom");
    expect(exit.tail[0]).toBe("line 7");

    const ok = await startPortalBuild("x", { say: () => {}, command: [fakeNext, "ok"] }).exited;
    expect(ok).toMatchObject({ code: 0, stopped: false });
    // The guard niced it, so the server keeps the cores it needs.
    expect(ok.tail[0]).toMatch(/ nice 10$/);
  });

  it.runIf(process.platform === "linux")(
    "stop() ends the build and the workers it started (its process group), and leaves no signal handler",
    async () => {
      const before = process.listenerCount("SIGTERM");
      const build = startPortalBuild("x", { say: () => {}, command: [fakeNext, "wait"] });
      expect(process.listenerCount("SIGTERM")).toBe(before + 1);
      // Stopped once Next's stand-in has started its worker and said so.
      const started = path.join(dir, `started-${build.pid}`);
      for (let i = 0; i < 100 && !fs.existsSync(started); i++) await new Promise((r) => setTimeout(r, 100));
      const [workerPid] = descendants(build.pid!);
      expect(workerPid).toBeGreaterThan(0);
      build.stop();
      const exit = await build.exited;
      expect(exit.stopped).toBe(true);
      expect(exit.signal ?? exit.code).toBeTruthy();
      expect(pidsIn(exit.tail[0])).toEqual([build.pid, workerPid]);
      expect(await gone([build.pid!, workerPid!])).toEqual([]);
      expect(process.listenerCount("SIGTERM")).toBe(before);
    },
  );

  /** A stand-in for the server: a process that starts the build and prints its pid line, then waits. */
  async function serverWithBuild(extra = "") {
    const script = `
import { startPortalBuild } from ${JSON.stringify(path.resolve("scripts/portal-build.mjs"))};
const build = startPortalBuild("x", { say: () => {}, command: [${JSON.stringify(fakeNext)}, "wait"] });
${extra}
setInterval(() => {}, 1000);
`;
    const proc = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    spawned.push(proc.pid!);
    // The build and its worker: the stand-in server's descendants, once the build has said it started.
    let pids: number[] = [];
    for (let i = 0; i < 100 && !(pids.length === 2 && fs.existsSync(path.join(dir, `started-${pids[0]}`))); i++) {
      await new Promise((r) => setTimeout(r, 100));
      pids = descendants(proc.pid!);
    }
    spawned.push(...pids);
    return { proc, pids };
  }

  it.runIf(process.platform === "linux")(
    "SIGTERM to a process with no handler of its own ends it (143), and the build with it",
    async () => {
      const { proc, pids } = await serverWithBuild();
      expect(pids).toHaveLength(2);
      const exited = once(proc, "exit");
      proc.kill("SIGTERM");
      const [code] = (await exited) as [number | null];
      expect(code).toBe(143);
      expect(await gone(pids)).toEqual([]);
    },
  );

  it.runIf(process.platform === "linux")(
    "a server killed by SIGKILL leaves no build behind: the guard in the build ends it",
    async () => {
      const { proc, pids } = await serverWithBuild();
      expect(pids).toHaveLength(2);
      proc.kill("SIGKILL");
      expect(await gone(pids)).toEqual([]);
    },
  );
});

/** Every descendant of a process (Linux, from /proc). */
function descendants(pid: number): number[] {
  const children = (p: number): number[] => {
    try {
      return fs
        .readdirSync(`/proc/${p}/task`)
        .flatMap((tid) => fs.readFileSync(`/proc/${p}/task/${tid}/children`, "utf8").split(" "))
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  const all: number[] = [];
  for (let queue = children(pid); queue.length;) {
    const next = queue.shift()!;
    all.push(next);
    queue.push(...children(next));
  }
  return all;
}
