import { defineArea } from "../../gateway/http/area.ts";
import { socialRoutes } from "./routes.ts";

export default defineArea({
  name: "social",
  scope: "social",
  paths: ["/v1/social/*"],
  routes: socialRoutes,
});
