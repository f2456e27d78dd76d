import { defineArea } from "../../gateway/http/area.ts";
import { registerTroveRoutes } from "./routes.ts";

export default defineArea({
  name: "trove",
  scope: "trove",
  paths: ["/v1/trove/*"],
  routes: [registerTroveRoutes],
});
