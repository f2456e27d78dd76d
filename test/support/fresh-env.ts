// Test files share a worker's module cache (vitest.config.ts: isolate false), and some set
// process.env for what they start in-process (a provider's key, a feature switch). Each file begins
// from the environment the worker started with, so no file sees another's settings.
const started: Readonly<Record<string, string | undefined>> = ((
  globalThis as { __workerEnv?: Record<string, string | undefined> }
).__workerEnv ??= { ...process.env });

for (const name of Object.keys(process.env)) if (!(name in started)) delete process.env[name];
Object.assign(process.env, started);
