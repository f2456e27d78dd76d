import { defineArea } from "../../gateway/http/area.ts";
import { cacheRoutes } from "./routes.ts";

/**
 * The response cache of model answers, as its owners manage it: clearing their own entries. Under the
 * "llm" scope: only a key that may call models can have cached their answers.
 */
export default defineArea({
  name: "cache",
  scope: "llm",
  paths: ["/v1/cache"],
  routes: cacheRoutes,
});
