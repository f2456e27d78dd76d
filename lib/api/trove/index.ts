import { defineArea } from "../../gateway/http/area.ts";
import { troveRoutes } from "./routes.ts";

export default defineArea({
  name: "trove",
  scope: "trove",
  paths: ["/v1/trove/*"],
  routes: troveRoutes,
});
