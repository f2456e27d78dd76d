// The worker pool's entry. Plain JavaScript so it loads the same way under `tsx server.ts` and under
// vitest (which does not transform worker threads): it registers tsx, then loads the TypeScript tasks.
import { register } from "tsx/esm/api";

register();
const { runHeavyTask } = await import("./heavy-tasks.ts");

export default runHeavyTask;
