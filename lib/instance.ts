import { createApp } from "./app.ts";
import type { HttpGateway } from "./gateway/pipeline/gateway.ts";
import { startOperatorServer } from "./gateway/keys/operator.ts";
import { getRuntime, type Runtime } from "./gateway/runtime/runtime.ts";
import { watchRoutingFile } from "./llm/routing/watch-file.ts";

export type Gateway = { rt: Runtime; app: HttpGateway; close(): Promise<void> };

type GatewayGlobal = typeof globalThis & { __gateway?: Promise<Gateway> };

/**
 * The process's one gateway (runtime, app, and the loopback operator endpoint the keys CLI uses),
 * shared through globalThis by server.ts and by Next's separately bundled route handlers.
 */
export function getGateway(): Promise<Gateway> {
  const g = globalThis as GatewayGlobal;
  g.__gateway ??= (async () => {
    const rt = await getRuntime();
    // Every instance sharing the routing file follows a change to it (an operator's save on any of them).
    watchRoutingFile(rt);
    const app = createApp(rt);
    const operator = await startOperatorServer(rt);
    let closing: Promise<void> | undefined;
    return {
      rt,
      app,
      close: () => (closing ??= operator.close().then(() => rt.close())),
    };
  })();
  return g.__gateway;
}

/** Next route handlers: every method goes to the gateway's pipeline, through its Fetch adapter. */
export async function handleWithGateway(request: Request): Promise<Response> {
  const { app } = await getGateway();
  return app.fetch(request);
}
