import { defineArea } from "../../gateway/http/area.ts";
import { clinicalRoutes } from "./routes.ts";

export default defineArea({
  name: "clinical",
  scope: "clinical",
  paths: ["/v1/clinical/*", "/api/conditions/*", "/api/search", "/api/stats"],
  routes: clinicalRoutes,
});
