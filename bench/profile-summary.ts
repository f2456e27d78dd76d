/** The parts of a V8 .cpuprofile this summary reads. */
export type CpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
};

type Row = { name: string; "µs/req": number; share: string };

/** Where code comes from: a package in node_modules, Node's internals, or this project's file. */
export function packageOf(url: string): string {
  if (!url) return "(native / GC / idle)";
  if (url.startsWith("node:")) return url;
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return url.replace(/^file:\/\/.*?\/(dist|lib|bench)\//, "$1/");
}

/** Self time per function and per package, in µs a request, largest first. "(idle)" is left out. */
export function summariseProfile(profile: CpuProfile, requests: number): { byPackage: Row[]; byFunction: Row[] } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!;
    if (frame.functionName === "(idle)") return;
    const us = profile.timeDeltas[i] ?? 0;
    busy += us;
    const name = `${frame.functionName || "(anonymous)"} ${packageOf(frame.url)}:${frame.lineNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    const p = frame.functionName.startsWith("(") ? frame.functionName : packageOf(frame.url);
    pkg.set(p, (pkg.get(p) ?? 0) + us);
  });
  const rows = (m: Map<string, number>): Row[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => ({
        name,
        "µs/req": Math.round((us / requests) * 10) / 10,
        share: `${((us / busy) * 100).toFixed(1)} %`,
      }));
  return { byPackage: rows(pkg), byFunction: rows(fn) };
}
