import { defineArea } from "../../gateway/http/area.ts";
import { etymologyRoutes } from "./routes.ts";

export default defineArea({
  name: "etymology",
  scope: "etymology",
  paths: ["/v1/etymology/*"],
  routes: etymologyRoutes,
});
