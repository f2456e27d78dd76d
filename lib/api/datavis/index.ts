import { defineArea } from "../../gateway/http/area.ts";
import { datavisRoutes } from "./routes.ts";

export default defineArea({
  name: "datavis",
  scope: "datavis",
  paths: ["/v1/datavis/*"],
  routes: datavisRoutes,
});
