import { loadConfig } from "../../lib/config.ts";
import { createApp } from "../../lib/app.ts";
import type { HttpGateway } from "../../lib/gateway/pipeline/gateway.ts";
import { createKey, type CreateKeyInput } from "../../lib/gateway/keys/key-changes.ts";
import { createRuntime, type Runtime } from "../../lib/gateway/runtime/runtime.ts";
import { serveGateway } from "./serve-gateway.ts";
import { backendEnv, type DatabaseBackend, type LimitBackend } from "./backends.ts";

export type TestGateway = {
  rt: Runtime;
  app: HttpGateway;
  /** Where the gateway listens (its Node adapter, on loopback). */
  url: string;
  env: Record<string, string>;
  /** Issues a key straight through the admin functions and returns the secret. */
  key(input?: Partial<CreateKeyInput>): Promise<{ id: string; key: string }>;
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
};

/**
 * A whole gateway (runtime + HTTP side) in this process, on its own database, served on a loopback
 * port through the Node adapter: `request` goes over a socket, as a client's would.
 */
export async function startTestGateway(
  options: { db?: DatabaseBackend; limits?: LimitBackend; env?: Record<string, string> } = {},
): Promise<TestGateway> {
  const backend = await backendEnv(options.db ?? "pglite", options.limits ?? "memory");
  const env = { ...backend.env, ...options.env };
  const rt = await createRuntime(loadConfig(env));
  const app = createApp(rt);
  const served = await serveGateway(app);
  return {
    rt,
    app,
    url: served.url,
    env,
    async key(input = {}) {
      const created = await createKey(rt.db, { name: "test key", ...input }, "test");
      return { id: created.id, key: created.key };
    },
    request: served.request,
    async close() {
      await served.close();
      await rt.close();
      await backend.cleanup();
    },
  };
}
