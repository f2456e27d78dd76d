import { defineArea } from "../../gateway/http/area.ts";
import { corpusRoutes } from "./routes.ts";

export default defineArea({
  name: "corpus",
  scope: "corpus",
  paths: ["/v1/corpus/*"],
  routes: corpusRoutes,
});
