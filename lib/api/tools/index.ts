import { defineArea } from "../../gateway/http/area.ts";
import { toolRoutes } from "./routes.ts";

/**
 * Tools (SPEC "Tools"): the data sources as named, schema-described tools for agents and MCP. A tool's
 * result is a third party's content, as on /v1/data.
 */
export default defineArea({
  name: "tools",
  scope: "tools",
  paths: ["/v1/tools/*"],
  respond: { untrusted: true },
  routes: toolRoutes,
});
