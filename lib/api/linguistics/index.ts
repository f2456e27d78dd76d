import { defineArea } from "../../gateway/http/area.ts";
import { registerLinguisticsRoutes } from "./routes.ts";

export default defineArea({
  name: "linguistics",
  scope: "linguistics",
  paths: ["/v1/linguistics/*"],
  routes: [registerLinguisticsRoutes],
});
