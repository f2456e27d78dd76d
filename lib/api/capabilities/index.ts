import { z } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse } from "../../gateway/http/schemas.ts";
import { route } from "../../gateway/pipeline/route.ts";
import { configuredProviders } from "../../upstream/providers.ts";

const capabilities = gatewayRoute("none", {
  method: "get",
  path: "/v1/capabilities",
  summary: "How many endpoints the gateway serves and which providers are usable now",
  tags: ["Status"],
  responses: {
    200: jsonResponse(
      z.object({ endpoints: z.number().int(), providers: z.array(z.string()) }).openapi("Capabilities"),
      "Endpoint count from the route table; providers with credentials configured",
    ),
  },
});

const capabilitiesRoute = route(capabilities, (c) => ({
  endpoints: c.gateway.endpointCount(),
  providers: configuredProviders(),
}));

export default defineArea({
  name: "capabilities",
  scope: "status",
  paths: ["/v1/capabilities"],
  routes: [capabilitiesRoute],
});
