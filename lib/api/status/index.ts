import { defineArea } from "../../gateway/http/area.ts";
import { statusRoutes } from "./routes.ts";

/** The service index, liveness, the OpenAPI document and Prometheus metrics: no key needed. */
export default defineArea({
  name: "status",
  scope: "status",
  paths: ["/", "/v1", "/health", "/openapi.json", "/metrics"],
  routes: statusRoutes,
});
