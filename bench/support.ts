import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { runKeysCli } from "../test/support/server-process.ts";

/**
 * A helper server of the benchmarks (bench/*-server.ts) in its own process, so it does not share a
 * core's time with the load generator; its first stdout line is `{"url": …}`.
 */
export async function startScriptServer(
  script: string,
  env: Record<string, string> = {},
): Promise<{ url: string; pid?: number; stop: () => void }> {
  const proc = spawn(process.execPath, ["--import", "tsx", script], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const url = await new Promise<string>((resolve) =>
    proc.stdout.once("data", (d: Buffer) => resolve(JSON.parse(d.toString()).url)),
  );
  return { url, pid: proc.pid, stop: () => proc.kill("SIGTERM") };
}

/** A key whose limits no benchmark reaches, made through the documented CLI. */
export async function createBenchKey(env: Record<string, string>): Promise<string> {
  const made = await runKeysCli(
    ["create", "--name", "bench", "--day", "1000000000", "--minute", "100000000", "--concurrency", "100000"],
    env,
  );
  return (made.lines[0] as { key: string }).key;
}

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** A process's resident memory, from /proc. */
export function rssMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))!;
  return Math.round(Number(line.replace(/\D+/g, "")) / 1024);
}

/**
 * Pins a process (all its threads) to one CPU with taskset, where the machine has it and two CPUs or
 * more; returns whether it did. A server measured on a CPU of its own is not preempted by the load
 * generator and the fakes, so two servers' CPU a request compare within a few µs instead of tens.
 */
export function pinToCpu(pid: number | undefined, cpu: number): boolean {
  if (pid === undefined || os.cpus().length < 2) return false;
  // A thread that exits while taskset walks the list fails the call; the next try finds the list settled.
  for (let attempt = 0; attempt < 3; attempt++)
    if (spawnSync("taskset", ["-a", "-p", "-c", String(cpu), String(pid)], { stdio: "ignore" }).status === 0)
      return true;
  return false;
}
