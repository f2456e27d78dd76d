import { defineArea } from "../../gateway/http/area.ts";
import { registerCorpusRoutes } from "./routes.ts";

export default defineArea({
  name: "corpus",
  scope: "corpus",
  paths: ["/v1/corpus/*"],
  routes: [registerCorpusRoutes],
});
