import { GatewayError } from "../../errors.ts";
import type { AreaApp } from "../../gateway/http/area.ts";
import { secretMatcher } from "../../gateway/keys/secret-match.ts";

/** GET /metrics: Prometheus text; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`. */
export function registerMetrics(app: AreaApp): void {
  let authorized: ((header: string | undefined) => boolean) | null | undefined;
  app.get("/metrics", async (c) => {
    const rt = c.get("runtime");
    authorized ??= rt.config.metricsToken ? secretMatcher(`Bearer ${rt.config.metricsToken}`) : null;
    if (authorized && !authorized(c.req.header("authorization"))) {
      throw new GatewayError(401, "metrics need 'Authorization: Bearer <METRICS_TOKEN>'");
    }
    return c.body(await rt.metrics.registry.metrics(), 200, { "Content-Type": rt.metrics.registry.contentType });
  });
}
