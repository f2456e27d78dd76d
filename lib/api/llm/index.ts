import { defineArea } from "../../gateway/http/area.ts";
import { registerOllamaRoutes } from "./ollama-routes.ts";
import { registerOpenAISurface } from "./openai-surface.ts";
import { registerLlmRoutes } from "./routes.ts";

export default defineArea({
  name: "llm",
  scope: "llm",
  paths: ["/v1/llm/*", "/v1/chat/*", "/v1/embeddings", "/v1/models"],
  routes: [registerLlmRoutes, registerOpenAISurface, registerOllamaRoutes],
});
