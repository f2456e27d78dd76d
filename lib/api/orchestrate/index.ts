import { defineArea } from "../../gateway/http/area.ts";
import { defineResearchTasks } from "./research.ts";
import { orchestrateRoutes } from "./routes.ts";

/** Multi-agent research (SPEC "Orchestration"): dream-cascade and dream-swarm, sync or as durable tasks. */
export default defineArea({
  name: "orchestrate",
  scope: "orchestrate",
  paths: ["/v1/orchestrate/*"],
  routes: orchestrateRoutes,
  setup: defineResearchTasks,
});
