import type { OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayEnv } from "../../gateway/context.ts";

export function registerGeneratorRoutes(app: OpenAPIHono<GatewayEnv>): void {
  void app;
}
