import { defineArea } from "../../gateway/http/area.ts";
import { createRoutes } from "./routes.ts";

export default defineArea({
  name: "create",
  scope: "create",
  paths: ["/v1/create/*"],
  routes: createRoutes,
});
