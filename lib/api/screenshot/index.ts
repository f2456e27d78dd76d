import { defineArea } from "../../gateway/http/area.ts";
import { screenshotRoutes } from "./routes.ts";

/** Screenshots carry a third party's page: every answer under its paths, errors included, is sandboxed. */
export default defineArea({
  name: "screenshot",
  scope: "screenshot",
  paths: ["/v1/screenshot/*"],
  routes: screenshotRoutes,
  respond: { untrusted: true },
});
