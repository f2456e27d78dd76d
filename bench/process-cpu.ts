import fs from "node:fs";

/**
 * CPU milliseconds a process has used so far (user + system, all threads), from /proc; undefined
 * off Linux. On a shared machine req/s moves with everyone else's load, while CPU spent per
 * request is a property of the server alone, so the two together tell noise from real change.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start at state; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticksPerMs = 100 / 1000; // USER_HZ is 100 on every Linux Node supports
    return (Number(fields[11]) + Number(fields[12])) / ticksPerMs;
  } catch {
    return undefined;
  }
}

/**
 * Runs a load and measures the CPU µs the process spent per request it served (NaN off Linux or without
 * a pid). Only the process's own CPU counts, so other processes' load barely moves it.
 */
export async function cpuPerRequest<R extends { requests: { total: number } }>(
  pid: number | undefined,
  run: () => Promise<R>,
): Promise<{ result: R; cpuUs: number }> {
  const before = pid === undefined ? undefined : processCpuMs(pid);
  const result = await run();
  const after = pid === undefined ? undefined : processCpuMs(pid);
  const cpuUs = before === undefined || after === undefined ? NaN : ((after - before) * 1000) / result.requests.total;
  return { result, cpuUs };
}

/** The pids a process started, and theirs in turn, from /proc (empty off Linux or once it has exited). */
export function descendants(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = tasks.flatMap((tid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** CPU milliseconds of a process and every process under it (a cluster's primary and its children). */
export function processTreeCpuMs(pid: number): number | undefined {
  const own = processCpuMs(pid);
  if (own === undefined) return undefined;
  return descendants(pid).reduce((sum, child) => sum + (processCpuMs(child) ?? 0), own);
}
