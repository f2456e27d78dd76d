import { defineArea } from "../../gateway/http/area.ts";
import { registerScreenshotRoutes } from "./routes.ts";

export default defineArea({
  name: "screenshot",
  scope: "screenshot",
  paths: ["/v1/screenshot/*"],
  routes: [registerScreenshotRoutes],
});
