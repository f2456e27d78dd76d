import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The README's quick start, as a newcomer types it, on a clean copy of this checkout: `npm start` with no
 * portal build and no compiled server, the key command, the first curl call. The copy has no .next, so it
 * also checks that the API answers while the portal is still being built, and that SIGTERM leaves nothing
 * of that build running.
 */

/** The commands the README gives, found by what they are rather than where they are. */
function readmeCommands(readme: string): { install: string; start: string; key: string; curl: string } {
  // The fence may say more after the language (```bash runnable).
  const blocks = [...readme.matchAll(/```(?:bash|sh|shell)\b[^\n]*\n([\s\S]*?)```/g)].map((m) =>
    // A line ending in a backslash goes on on the next one.
    m[1]!.replace(/\\\n\s*/g, " ").split("\n"),
  );
  const lines = blocks.flat().map((line) => line.replace(/\s+#.*$/, "").trim());
  const quickStart = lines.find((line) => /^npm install && npm start$/.test(line));
  const key = lines.find((line) => /^npm run --silent keys -- create\b/.test(line));
  const curl = lines.find((line) => /^curl /.test(line));
  if (!quickStart || !key || !curl)
    throw new Error(
      `README.md no longer has ${!quickStart ? "`npm install && npm start`" : !key ? "a keys create command" : "a curl call"} in a bash block`,
    );
  const [install, start] = quickStart.split(" && ") as [string, string];
  return { install, start, key, curl };
}

/** Processes whose working directory is in dir (Linux): the server, the build and its workers, a CLI. */
function processesIn(dir: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "(gone)";
  }
}

/**
 * What a clone has: the files git tracks or would track (so uncommitted work is walked too, but not the
 * builds, data and reports this checkout has made), and the Prisma client `npm install`'s postinstall
 * generates (lib/db/generated, ignored by git). node_modules is hard-linked rather than installed: an install
 * needs the network and minutes, and what is walked here is the README's start, not npm's; hard links cost no
 * space and nothing writes into node_modules (Next keeps its cache in .next).
 */
function cleanCopy(to: string): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  })
    .split("\0")
    .filter((file) => file && fs.existsSync(file) && fs.statSync(file).isFile());
  for (const file of files) {
    fs.mkdirSync(path.join(to, path.dirname(file)), { recursive: true });
    fs.copyFileSync(file, path.join(to, file));
  }
  fs.cpSync("lib/db/generated", path.join(to, "lib/db/generated"), { recursive: true });
  execFileSync("cp", ["-al", path.resolve("node_modules"), path.join(to, "node_modules")]);
}

const LISTENING = /"url":"(http:\/\/[^"]+)".*"msg":"gateway listening"/;
/** Generous: a loaded 2-core CI machine. On this one it took 11–32 s (docs/performance.md#start-up). */
const API_WITHIN_MS = 60_000;

describe.runIf(process.platform === "linux")("the README's quick start on a clean copy", { timeout: 180_000 }, () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "readme-walk-"));
  const copy = path.join(work, "gateway");
  const dataDir = path.join(work, "data");
  let npm: ChildProcess | undefined;

  // Whatever happened, nothing of the copy keeps running (a `next build` would take the suite's CPU for
  // minutes) and nothing of it stays on disk.
  afterAll(() => {
    for (const pid of [...(npm?.pid ? [npm.pid] : []), ...processesIn(copy)])
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    fs.rmSync(work, { recursive: true, force: true });
  });

  it("npm start serves the API while the portal builds, the key and curl commands work, SIGTERM leaves nothing running", async () => {
    const commands = readmeCommands(fs.readFileSync("README.md", "utf8"));
    expect(commands.install).toBe("npm install");
    expect(commands.start).toBe("npm start");
    cleanCopy(copy);
    expect(fs.existsSync(path.join(copy, ".next"))).toBe(false);
    expect(fs.existsSync(path.join(copy, "dist"))).toBe(false);

    // A user's shell: none of the runner's settings (NODE_ENV=test, the suite's backends), a port of its own.
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1" };
    for (const name of ["NODE_ENV", "DATABASE_URL", "REDIS_URL"]) delete env[name];

    const started = Date.now();
    const proc = spawn("sh", ["-c", `exec ${commands.start}`], { cwd: copy, env, stdio: ["ignore", "pipe", "pipe"] });
    npm = proc;
    let out = "";
    proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    const exited = once(proc, "exit") as Promise<[number | null, NodeJS.Signals | null]>;

    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no listening line within ${API_WITHIN_MS} ms:\n${out}`)),
        API_WITHIN_MS,
      );
      const check = () => {
        const match = LISTENING.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      proc.stdout!.on("data", check);
      void exited.then(([code]) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited with ${code}:\n${out}`));
      });
    });
    const health = await fetch(`${url}/health`);
    const apiMs = Date.now() - started;
    expect(health.status).toBe(200);
    expect(apiMs, `the API answered after ${apiMs} ms`).toBeLessThan(API_WITHIN_MS);
    expect(out).toMatch(/portal: building \(no portal build found; a few minutes\)/);
    // The first start's sign-in link is still printed at start, not once the portal is built.
    expect(out).toMatch(/"operatorSignInLink":"http:/);

    // The portal is being built meanwhile, in the background: a browser gets the page saying so.
    const page = await fetch(url, { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(await page.text()).toMatch(/The portal is being built/);
    const building = processesIn(copy).map(commandOf);
    expect(
      building.some((command) => /next-build|next\/dist\/bin\/next build/.test(command)),
      building.join("\n"),
    ).toBe(true);

    // The key command, as typed, in the project's directory beside the running server.
    const key = spawnSync("sh", ["-c", commands.key], { cwd: copy, env, encoding: "utf8", timeout: 90_000 });
    expect(key.status, key.stderr).toBe(0);
    const created = JSON.parse(key.stdout.trim()) as { id: string; key: string; prefix: string };
    expect(created.key).toMatch(/^sk_/);

    // The curl call, as typed after `export API_KEY=sk_...`, at this server's address instead of port 3000.
    const curl = spawnSync("sh", ["-c", commands.curl.replace("http://127.0.0.1:3000", url)], {
      env: { ...env, API_KEY: created.key },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(curl.status, curl.stderr).toBe(0);
    expect(JSON.parse(curl.stdout)).toMatchObject({ prefix: created.prefix, name: "my laptop" });

    // SIGTERM to npm's pid, as a supervisor sends it: the server drains and exits 0, the build ends with it.
    proc.kill("SIGTERM");
    const [code] = await exited;
    expect(code, out).toBe(0);
    expect(out).toMatch(/"msg":"stopped"/);
    let left = processesIn(copy);
    for (let i = 0; i < 100 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = processesIn(copy);
    }
    expect(left.map(commandOf)).toEqual([]);
  });
});
