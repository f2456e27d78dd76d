import type { AreaApp, GatewayInfo } from "../../gateway/http/area.ts";

export const API_VERSION = "1.0.0";

/** The OpenAPI document's info block. */
export const API_DESCRIPTION = {
  title: "Unified API Gateway",
  version: API_VERSION,
  description: "One API key for language models, research orchestration, data sources, reference data and utilities.",
};

/** GET /openapi.json: the document of every mounted route, built on first request and kept as text. */
export function registerOpenApiDocument(app: AreaApp, gateway: GatewayInfo): void {
  let document: string | undefined;
  app.get("/openapi.json", (c) => {
    document ??= JSON.stringify(
      gateway.openApiDocument({
        info: API_DESCRIPTION,
        servers: [{ url: c.get("runtime").config.publicBaseUrl ?? "/" }],
      }),
    );
    return c.body(document, 200, { "Content-Type": "application/json; charset=utf-8" });
  });
}
