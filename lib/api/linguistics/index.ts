import { defineArea } from "../../gateway/http/area.ts";
import { linguisticsRoutes } from "./routes.ts";

export default defineArea({
  name: "linguistics",
  scope: "linguistics",
  paths: ["/v1/linguistics/*"],
  routes: linguisticsRoutes,
});
