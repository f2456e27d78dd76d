import { defineArea } from "../../gateway/http/area.ts";
import { registerProxyRoutes } from "./routes.ts";

export default defineArea({
  name: "proxy",
  scope: "proxy",
  paths: ["/v1/proxy"],
  routes: [registerProxyRoutes],
});
