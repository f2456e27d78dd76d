import { loadConfig } from "../../lib/config.ts";
import { createApp } from "../../lib/app.ts";
import type { GatewayApp } from "../../lib/gateway/http/app.ts";
import { createKey, type CreateKeyInput } from "../../lib/gateway/keys/admin.ts";
import { createRuntime, type Runtime } from "../../lib/gateway/runtime/runtime.ts";
import { backendEnv, type DatabaseBackend, type LimitBackend } from "./backends.ts";

export type TestGateway = {
  rt: Runtime;
  app: GatewayApp;
  env: Record<string, string>;
  /** Issues a key straight through the admin functions and returns the secret. */
  key(input?: Partial<CreateKeyInput>): Promise<{ id: string; key: string }>;
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
};

/** A whole gateway (runtime + app) in this process, on its own database, for tests that call app.request. */
export async function startTestGateway(
  options: { db?: DatabaseBackend; limits?: LimitBackend; env?: Record<string, string> } = {},
): Promise<TestGateway> {
  const backend = await backendEnv(options.db ?? "pglite", options.limits ?? "memory");
  const env = { ...backend.env, ...options.env };
  const rt = await createRuntime(loadConfig(env));
  const app = createApp(rt);
  return {
    rt,
    app,
    env,
    async key(input = {}) {
      const created = await createKey(rt.db, { name: "test key", ...input }, "test");
      return { id: created.id, key: created.key };
    },
    request: async (path, init) => app.request(path, init),
    async close() {
      await rt.close();
      await backend.cleanup();
    },
  };
}
