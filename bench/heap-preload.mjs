// Loaded with --import into the server bench/llm-stream.ts holds streams open on: on SIGUSR2 it collects
// garbage (twice, so what the last scavenge promoted goes too) and writes process.memoryUsage() to
// HEAP_OUT. RSS moves with when V8 last collected and how it sized its heap; the live heap after a full
// collection is what a held stream really keeps. The RSS figure is read before any of this runs.
import fs from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");

process.on("SIGUSR2", () => {
  gc();
  gc();
  fs.writeFileSync(process.env.HEAP_OUT, JSON.stringify(process.memoryUsage()));
});
