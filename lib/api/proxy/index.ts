import { defineArea } from "../../gateway/http/area.ts";
import { proxyRoutes } from "./routes.ts";

export default defineArea({
  name: "proxy",
  scope: "proxy",
  paths: ["/v1/proxy"],
  routes: proxyRoutes,
});
