// Loaded (`node --import`) into the `next build` that `npm start` runs in the background
// (scripts/portal-build.mjs), before Next's own code.
import os from "node:os";

// The server comes first: at the default priority the build would take both cores from the API's requests
// for the minutes it runs. Niced, it takes the time the server leaves. Threads and worker processes the
// build starts from here on inherit the priority.
try {
  os.setPriority(10);
} catch {
  // Not permitted here (some containers): the build runs at the usual priority.
}

// The server kills the build (its process group) when it stops, even by process.exit. A server that dies
// by SIGKILL or a crash cannot: then this build's parent changes (it is handed to init or a subreaper),
// and the build ends itself and every process of its group rather than burning the CPU for minutes.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(0, "SIGTERM");
}, 1000).unref();
