import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

export type ServerProcess = {
  url: string;
  proc: ChildProcess;
  output: () => string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/** The runner's environment without the backend URLs: a child uses exactly the backends its test chose. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...rest } = process.env;
  return rest;
}

const LISTENING = /"url":"(http:\/\/[^"]+)".*"msg":"gateway listening"/;

/**
 * Runs server.ts as its own process and waits for its listening line: through tsx for a `.ts` entry
 * (the tests run the sources), on plain node for a compiled one (`dist/server.mjs`, what `npm start` runs).
 */
export async function startServerProcess(
  env: Record<string, string>,
  entry = "server.ts",
  /** Modules loaded before the entry (`--import`), such as a network jail for the process. */
  preloads: string[] = [],
): Promise<ServerProcess> {
  return startProcess(env, entry, LISTENING, preloads);
}

/** `npm run worker` (worker.ts) as its own process, once it says it is taking tasks; its url is "". */
export function startWorkerProcess(env: Record<string, string>): Promise<ServerProcess> {
  return startProcess(env, "worker.ts", /"msg":"worker taking research tasks"()/);
}

/**
 * `npm run cluster` (scripts/cluster.mjs) as its own process, once every web process listens; the url is
 * the port they share. Needs DATABASE_URL and REDIS_URL in `env`; builds dist/ first when it is stale.
 */
export function startClusterProcess(env: Record<string, string>): Promise<ServerProcess> {
  return startProcess(env, "scripts/cluster.mjs", /"url":"(http:\/\/[^"]+)","web".*"msg":"cluster listening"/);
}

/**
 * `npm start` exactly as an operator runs it (the compiled server, built first if stale); `proc` is
 * npm's own process, the one a container runtime or process manager signals.
 */
export function startNpmStart(env: Record<string, string>): Promise<ServerProcess> {
  return startProcess(env, "", LISTENING, [], ["npm", ["start"]]);
}

async function startProcess(
  env: Record<string, string>,
  entry: string,
  ready: RegExp,
  preloads: string[] = [],
  command?: [string, string[]],
): Promise<ServerProcess> {
  const imports = [...(entry.endsWith(".ts") ? ["tsx"] : []), ...preloads].flatMap((m) => ["--import", m]);
  const [file, args] = command ?? [process.execPath, [...imports, entry]];
  const proc = spawn(file, args, {
    // The listening line is how the port is learnt, so logging stays at info whatever env says.
    env: {
      ...inheritedEnv(),
      PORT: "0",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${out}`)), 90_000);
    const check = () => {
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    proc.stdout!.on("data", check);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    proc,
    output: () => out,
    async stop(signal = "SIGTERM") {
      // A process ended by a signal has no exit code, only a signal code.
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      const exited = once(proc, "exit");
      proc.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** Runs the documented CLI, `npm run --silent keys -- ...`, and returns its stdout lines parsed. */
export async function runKeysCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; lines: unknown[]; stderr: string }> {
  const proc = spawn("npm", ["run", "--silent", "keys", "--", ...args], {
    env: { ...inheritedEnv(), LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(proc, "exit")) as [number | null];
  const lines = stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
  return { code, lines, stderr };
}
