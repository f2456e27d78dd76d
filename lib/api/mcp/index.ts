import { defineArea } from "../../gateway/http/area.ts";
import { MCP_SCOPE, mcpRoutes } from "./routes.ts";

/**
 * MCP (SPEC "Tools"): the tool registry for MCP clients, on the same keys, limits and metering. Tool
 * results are third parties' content, as on /v1/tools.
 */
export default defineArea({
  name: "mcp",
  scope: MCP_SCOPE,
  paths: ["/v1/mcp"],
  respond: { untrusted: true },
  routes: mcpRoutes,
});
