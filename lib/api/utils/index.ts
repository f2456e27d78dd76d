import { defineArea } from "../../gateway/http/area.ts";
import { registerExternalUtilityRoutes } from "./external/routes.ts";
import { registerUtilsRoutes } from "./routes.ts";
import { registerSpeechRoutes } from "./speech/routes.ts";
import { registerTextRoutes } from "./text/routes.ts";

export default defineArea({
  name: "utils",
  scope: "utils",
  paths: ["/v1/utils/*"],
  routes: [registerExternalUtilityRoutes, registerUtilsRoutes, registerSpeechRoutes, registerTextRoutes],
});
