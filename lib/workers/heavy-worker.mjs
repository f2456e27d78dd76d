// The worker pool's entry when the server runs from source. Plain JavaScript so it loads the same way
// under `tsx server.ts`, Next and vitest (which does not transform worker threads): it registers tsx,
// then loads the TypeScript tasks. The compiled server (`npm start`) starts its threads on
// dist/heavy-tasks.mjs instead, with no tsx (lib/gateway/runtime/worker-pool.ts).
import { register } from "tsx/esm/api";

register();
const { runHeavyTask } = await import("./heavy-tasks.ts");

export default runHeavyTask;
