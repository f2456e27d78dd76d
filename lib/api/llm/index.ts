import { defineArea } from "../../gateway/http/area.ts";
import { batchRoutes } from "./routes/batch.ts";
import { chatRoutes } from "./routes/chat.ts";
import { embeddingRoutes } from "./routes/embeddings.ts";
import { mediaRoutes } from "./routes/media.ts";
import { modelRoutes } from "./routes/models.ts";
import { ollamaRoutes } from "./routes/ollama.ts";
import { videoRoutes } from "./routes/video.ts";

export default defineArea({
  name: "llm",
  scope: "llm",
  paths: ["/v1/llm/*"],
  routes: [
    ...chatRoutes,
    ...modelRoutes,
    ...embeddingRoutes,
    ...mediaRoutes,
    ...batchRoutes,
    ...videoRoutes,
    ...ollamaRoutes,
  ],
});
