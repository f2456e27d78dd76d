import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import type { Area } from "../http/area.ts";
import { withDatabaseOutage } from "../http/openapi-outage.ts";
import { withSchemaTypes } from "../http/openapi-types.ts";
import type { Runtime } from "../runtime/runtime.ts";
import { fetchAdapter } from "./fetch-adapter.ts";
import type { GatewayInfo } from "./gateway-info.ts";
import { nodeAdapter, type NodeListener } from "./node-adapter.ts";
import { createPipeline } from "./pipeline.ts";
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

/**
 * The areas mounted in order: each area's task kinds' work registered, its routes added to the table
 * and to the OpenAPI document (built from the same contracts that validate requests).
 */
export function createHttpGateway(rt: Runtime, areas: readonly Area[]): HttpGateway {
  const table = new RouteTable();
  const registry = new OpenAPIRegistry();
  registerSecuritySchemes(registry);
  const info: GatewayInfo = {
    openApiDocument: (config) =>
      withSchemaTypes(
        withDatabaseOutage(
          new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: "3.1.0", ...config }),
        ),
      ),
    endpointCount: () => registry.definitions.filter((d) => d.type === "route").length,
  };
  const mounted: Area[] = [];
  const mount = (area: Area) => {
    mounted.push(area);
    for (const def of area.routes) {
      table.add(area, def);
      if (!(def.contract as { hide?: boolean }).hide)
        registry.registerPath({ ...def.contract, "x-gateway-area": area.scope } as typeof def.contract);
    }
  };
  for (const area of areas) {
    area.setup?.(rt);
    mount(area);
  }
  const pipeline = createPipeline(rt, table, info, mounted);
  return {
    table,
    info,
    mount,
    node: nodeAdapter(pipeline, rt.config.maxBodyBytes),
    fetch: fetchAdapter(pipeline, rt.config.maxBodyBytes),
  };
}

/** The three ways a key is sent, as the document's security schemes (each keyed route lists them). */
function registerSecuritySchemes(registry: OpenAPIRegistry): void {
  registry.registerComponent("securitySchemes", "apiKeyHeader", { type: "apiKey", in: "header", name: "X-API-Key" });
  registry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
  registry.registerComponent("securitySchemes", "apiKeyQuery", { type: "apiKey", in: "query", name: "api_key" });
}
