import { defineArea } from "../../gateway/http/area.ts";
import { altTextRoutes } from "./alt-text.ts";
import { businessPlanRoutes } from "./business-plan.ts";
import { itineraryRoutes } from "./itinerary.ts";
import { lessonPlanRoutes } from "./lesson-plan.ts";
import { resumeRoutes } from "./resume.ts";
import { storyRoutes } from "./story.ts";

/** Templated generation (SPEC "Templated generation"): each template beside its route, both forms. */
export default defineArea({
  name: "generate",
  scope: "generate",
  paths: ["/v1/generate/*"],
  routes: [
    ...altTextRoutes,
    ...lessonPlanRoutes,
    ...businessPlanRoutes,
    ...itineraryRoutes,
    ...resumeRoutes,
    ...storyRoutes,
  ],
});
