import { defineArea } from "../../gateway/http/area.ts";
import { registerDataRoutes } from "./routes.ts";

export default defineArea({
  name: "data",
  scope: "data",
  paths: ["/v1/data/*"],
  routes: [registerDataRoutes],
});
