import fs from "node:fs";
import path from "node:path";
import type { CreateKeyInput } from "../../lib/gateway/keys/key-changes.ts";
import { tempDir, type DatabaseBackend, type LimitBackend } from "./backends.ts";
import { startTestGateway, type TestGateway } from "./gateway.ts";

/** A routing file's content (docs/routing.md), written as JSON; the gateway checks it as it starts. */
export type RoutingFile = {
  deployments: object[];
  aliases?: Record<string, object>;
  guardrails?: Record<string, object>;
};

/** Writes `routing` as gateway.config.json in a directory of its own; remove() deletes both. */
export function writeRoutingFile(routing: RoutingFile): { file: string; remove(): void } {
  const dir = tempDir("routing");
  const file = path.join(dir, "gateway.config.json");
  fs.writeFileSync(file, JSON.stringify(routing));
  return { file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export type RoutedGateway = TestGateway & {
  /** The secret of the key issued as the gateway started. */
  apiKey: string;
};

/**
 * A test gateway on a routing file, with a key. `providerEnv` (credentials, upstream origins) is set in
 * the process's environment, where provider calls read it, and given to the gateway too, whose check of
 * the file wants each deployment's credential; `env` is the gateway's alone, beside GATEWAY_CONFIG.
 * close() closes the gateway, puts process.env back as it found it and deletes the file: gateways
 * started one after another close in the reverse order.
 */
export async function startRoutedGateway(options: {
  routing: RoutingFile;
  providerEnv?: Record<string, string>;
  env?: Record<string, string>;
  db?: DatabaseBackend;
  limits?: LimitBackend;
  key?: Partial<CreateKeyInput>;
}): Promise<RoutedGateway> {
  const written = writeRoutingFile(options.routing);
  const saved = { ...process.env };
  const restore = () => {
    process.env = saved;
    written.remove();
  };
  Object.assign(process.env, options.providerEnv);
  let gw: TestGateway | undefined;
  try {
    gw = await startTestGateway({
      db: options.db,
      limits: options.limits,
      env: { ...options.providerEnv, GATEWAY_CONFIG: written.file, ...options.env },
    });
    const { key } = await gw.key(options.key);
    const close = gw.close;
    return Object.assign(gw, {
      apiKey: key,
      async close() {
        await close();
        restore();
      },
    });
  } catch (err) {
    await gw?.close();
    restore();
    throw err;
  }
}
