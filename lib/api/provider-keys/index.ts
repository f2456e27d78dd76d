import { defineArea } from "../../gateway/http/area.ts";
import { providerKeyRoutes } from "./routes.ts";

/**
 * The owner's own provider keys (bring your own key). Under the "llm" scope: they are only ever used
 * for model calls, so a key that may call models may manage them, as it may register its own Ollama
 * hosts, and a key narrowed to other areas (data, say) may not read or replace them.
 */
export default defineArea({
  name: "provider-keys",
  scope: "llm",
  paths: ["/v1/provider-keys/*"],
  routes: providerKeyRoutes,
});
