import { defineArea } from "../../gateway/http/area.ts";
import { externalUtilityRoutes } from "./external/routes.ts";
import { citationRoutes } from "./routes/citations.ts";
import { dataConvertRoutes } from "./routes/data-convert.ts";
import { formatConvertRoutes } from "./routes/format-convert.ts";
import { imageRoutes } from "./routes/images.ts";
import { keywordRoutes } from "./routes/keywords.ts";
import { pdfRoutes } from "./routes/pdf.ts";
import { speechRoutes } from "./speech/routes.ts";
import { textRoutes } from "./text/routes.ts";

/** Utilities: each group's routes in a module of its own, mounted in the order they were written. */
export default defineArea({
  name: "utils",
  scope: "utils",
  paths: ["/v1/utils/*"],
  routes: [
    ...externalUtilityRoutes,
    ...citationRoutes,
    ...dataConvertRoutes,
    ...formatConvertRoutes,
    ...keywordRoutes,
    ...imageRoutes,
    ...pdfRoutes,
    ...speechRoutes,
    ...textRoutes,
  ],
});
