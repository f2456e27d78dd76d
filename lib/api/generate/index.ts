import { defineArea } from "../../gateway/http/area.ts";
import { registerStoryRoutes } from "./story.ts";

/** Templated generation (SPEC "Templated generation", issue #14): each template beside its route, both forms. */
export default defineArea({
  name: "generate",
  scope: "generate",
  paths: ["/v1/generate/*"],
  routes: [registerStoryRoutes],
});
