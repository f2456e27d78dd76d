import { afterAll, beforeAll } from "vitest";
import type { CreateKeyInput } from "../../lib/gateway/keys/key-changes.ts";
import type { DatabaseBackend } from "./backends.ts";
import { startTestGateway, type TestGateway } from "./gateway.ts";

type Closable = { close(): unknown };

export type UsedGateway<F extends Closable[]> = {
  /** The gateway, its key's secret and the started fakes: set in beforeAll. */
  gw: TestGateway;
  key: string;
  keyId: string;
  fakes: F;
  /** GET with the key (withKey false: without it). */
  get(path: string, withKey?: boolean): Promise<Response>;
  /** POST a JSON body with the key (withKey false: without it). */
  post(path: string, body: unknown, withKey?: boolean): Promise<Response>;
};

/**
 * The suite setup most HTTP tests share: in beforeAll start the fakes, set the env
 * (an undefined value deletes the variable), start a gateway and issue a key; in afterAll
 * restore process.env as it was when useGateway was called, close the gateway, then the fakes.
 */
export function useGateway<F extends Closable[] = []>(
  options: {
    fakes?: () => Promise<[...F]>;
    env?: (fakes: F) => Record<string, string | undefined>;
    /** The gateway's own configuration (lib/config.ts reads it from here, not from process.env). */
    config?: Record<string, string>;
    key?: Partial<CreateKeyInput>;
    /** PGlite unless given (databaseBackends lists PostgreSQL too when DATABASE_URL is set). */
    db?: DatabaseBackend;
  } = {},
): UsedGateway<F> {
  const saved = { ...process.env };
  const t = {
    fakes: [] as unknown as F,
    get: (path: string, withKey = true) => t.gw.request(path, withKey ? { headers: { "X-API-Key": t.key } } : {}),
    post: (path: string, body: unknown, withKey = true) =>
      t.gw.request(path, {
        method: "POST",
        headers: { "content-type": "application/json", ...(withKey ? { "X-API-Key": t.key } : {}) },
        body: JSON.stringify(body),
      }),
  } as UsedGateway<F>;
  beforeAll(async () => {
    if (options.fakes) t.fakes = await options.fakes();
    for (const [name, value] of Object.entries(options.env?.(t.fakes) ?? {})) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    t.gw = await startTestGateway({ db: options.db, env: options.config });
    ({ key: t.key, id: t.keyId } = await t.gw.key(options.key));
  });
  afterAll(async () => {
    process.env = saved;
    await t.gw?.close();
    await Promise.all(t.fakes.map((f) => f?.close()));
  });
  return t;
}
