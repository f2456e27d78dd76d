import { defineArea } from "../../gateway/http/area.ts";
import { aacRoutes } from "./routes.ts";

export default defineArea({
  name: "aac",
  scope: "aac",
  paths: ["/v1/aac/*"],
  routes: aacRoutes,
});
