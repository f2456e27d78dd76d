import { defineArea } from "../../gateway/http/area.ts";
import { registerBatchRoutes } from "./routes/batch.ts";
import { registerChatRoutes } from "./routes/chat.ts";
import { registerEmbeddingRoutes } from "./routes/embeddings.ts";
import { registerMediaRoutes } from "./routes/media.ts";
import { registerModelRoutes } from "./routes/models.ts";
import { registerOllamaRoutes } from "./routes/ollama.ts";
import { registerVideoRoutes } from "./routes/video.ts";

export default defineArea({
  name: "llm",
  scope: "llm",
  paths: ["/v1/llm/*"],
  routes: [
    registerChatRoutes,
    registerModelRoutes,
    registerEmbeddingRoutes,
    registerMediaRoutes,
    registerBatchRoutes,
    registerVideoRoutes,
    registerOllamaRoutes,
  ],
});
