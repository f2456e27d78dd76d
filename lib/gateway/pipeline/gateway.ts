import { getRequestListener } from "@hono/node-server";
import { createGatewayApp, type GatewayApp } from "../http/app.ts";
import type { Area, GatewayInfo, RouteModule } from "../http/area.ts";
import { withDatabaseOutage } from "../http/openapi-outage.ts";
import { withSchemaTypes } from "../http/openapi-types.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { fetchAdapter } from "./fetch-adapter.ts";
import { nodeAdapter, type NodeListener } from "./node-adapter.ts";
import { createPipeline } from "./pipeline.ts";
import type { RouteDef } from "./route.ts";
import { RouteTable } from "./route-table.ts";

/** The gateway's HTTP side: its route table, and the one pipeline behind a Node and a Fetch adapter. */
export type HttpGateway = {
  readonly table: RouteTable;
  readonly info: GatewayInfo;
  /** Node's request and response: what `npm start` serves and the HTTP tests drive. */
  readonly node: NodeListener;
  /** `Request` in, `Response` out: the Next.js route handler (`next dev`), serverless hosts. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Adds an area's routes (after start only for tests' probe routes). */
  mount(area: Area): void;
};

const isRouteDef = (r: RouteModule | RouteDef): r is RouteDef => typeof r !== "function";

/**
 * The areas mounted in order: each area's routes into the table (and the OpenAPI document), its task
 * kinds' work registered. Areas still declared as Hono route modules are served by the Hono app behind
 * the same adapters, for a request no table route answers.
 */
export function createHttpGateway(rt: Runtime, areas: readonly Area[]): HttpGateway {
  const table = new RouteTable();
  const legacyAreas = areas.filter((a) => !a.routes.every(isRouteDef));
  const legacy: GatewayApp = createGatewayApp(rt, legacyAreas);
  const registry = legacy.openAPIRegistry;
  const info: GatewayInfo = {
    openApiDocument: (config) =>
      withSchemaTypes(withDatabaseOutage(legacy.getOpenAPI31Document({ openapi: "3.1.0", ...config }))),
    endpointCount: () => registry.definitions.filter((d) => d.type === "route").length,
  };
  const mounted: Area[] = [];
  const mount = (area: Area) => {
    mounted.push(area);
    for (const def of area.routes) {
      if (!isRouteDef(def)) continue;
      table.add(area, def);
      if (!(def.contract as { hide?: boolean }).hide)
        registry.registerPath({ ...def.contract, "x-gateway-area": area.scope } as typeof def.contract);
    }
  };
  for (const area of areas) {
    if (area.routes.every(isRouteDef)) {
      area.setup?.(rt);
      mount(area);
    }
  }
  const pipeline = createPipeline(rt, table, info, mounted);
  const max = rt.config.maxBodyBytes;
  const servedHere = (method: string, path: string) =>
    table.match(method, path) !== undefined || table.allowed(path).length > 0 || legacyAreas.length === 0;
  const node = nodeAdapter(pipeline, max);
  const legacyNode = getRequestListener(legacy.fetch);
  const fetch = fetchAdapter(pipeline, max);
  return {
    table,
    info,
    mount,
    node(req, res) {
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      if (servedHere(req.method ?? "GET", q === -1 ? url : url.slice(0, q))) return node(req, res);
      void legacyNode(req, res);
    },
    fetch(request) {
      if (servedHere(request.method, new URL(request.url).pathname)) return fetch(request);
      return Promise.resolve(legacy.fetch(request));
    },
  };
}
