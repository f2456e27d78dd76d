import { defineArea } from "../../gateway/http/area.ts";
import { documentRoutes } from "./routes.ts";

export default defineArea({
  name: "documents",
  scope: "documents",
  paths: ["/v1/documents/*"],
  routes: documentRoutes,
});
