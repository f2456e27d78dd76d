import { defineArea } from "../../gateway/http/area.ts";
import { registerAltTextRoutes } from "./alt-text.ts";
import { registerBusinessPlanRoutes } from "./business-plan.ts";
import { registerItineraryRoutes } from "./itinerary.ts";
import { registerLessonPlanRoutes } from "./lesson-plan.ts";
import { registerResumeRoutes } from "./resume.ts";
import { registerStoryRoutes } from "./story.ts";

/** Templated generation (SPEC "Templated generation", issue #14): each template beside its route, both forms. */
export default defineArea({
  name: "generate",
  scope: "generate",
  paths: ["/v1/generate/*"],
  routes: [
    registerAltTextRoutes,
    registerLessonPlanRoutes,
    registerBusinessPlanRoutes,
    registerItineraryRoutes,
    registerResumeRoutes,
    registerStoryRoutes,
  ],
});
