import { defineArea } from "../../gateway/http/area.ts";
import { defineResearchTasks } from "./research.ts";
import { registerOrchestrateRoutes } from "./routes.ts";

/** Multi-agent research (SPEC "Orchestration", issue #13): dream-cascade and dream-swarm, sync or as durable tasks. */
export default defineArea({
  name: "orchestrate",
  scope: "orchestrate",
  paths: ["/v1/orchestrate/*"],
  routes: [registerOrchestrateRoutes],
  setup: defineResearchTasks,
});
