// Loaded with --import into a server under `bench/profile.ts`: on SIGUSR2 samples the main thread's
// CPU with the inspector's profiler (NODE_OPTIONS refuses --cpu-prof) for PROFILE_MS and writes the
// profile to PROFILE_OUT.
import fs from "node:fs";
import { Session } from "node:inspector";

const session = new Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
  );

process.on("SIGUSR2", async () => {
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 50 });
  await post("Profiler.start");
  setTimeout(async () => {
    const { profile } = await post("Profiler.stop");
    fs.writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
  }, Number(process.env.PROFILE_MS));
});
