import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { parsedJson } from "../../gateway/pipeline/validate.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { providerErrors } from "../../llm/route-schemas.ts";
import { bodyForms } from "./body-forms.ts";
import { respondGenerated } from "./respond.ts";
import { runTemplate, StrictField, WarningsField, type Template } from "./template.ts";

const LEVELS = ["A1", "A2", "B1", "B2", "C1", "C2"] as const;
const DURATIONS = ["30min", "45min", "60min", "90min"] as const;
const FOCUSES = [
  "grammar",
  "vocabulary",
  "speaking",
  "listening",
  "reading",
  "writing",
  "pronunciation",
  "communication",
] as const;
export const SECTIONS = ["warm_up", "presentation", "practice", "production", "wrap_up"] as const;

const Topic = z.string().trim().min(1).max(500);
const Provider = z.string().max(50).optional().openapi({ description: "default xai" });

const FormA = z.object({
  topic: Topic,
  level: z.string().trim().min(1).max(100).default("intermediate").openapi({ description: "Form A: free text" }),
  duration: z.number().int().min(10).max(240).default(60).openapi({ description: "Form A: minutes" }),
  provider: Provider,
  strict: StrictField,
});
const FormB = z.object({
  topic: Topic,
  level: z.enum(LEVELS).default("B1"),
  duration: z.enum(DURATIONS).default("60min"),
  focus: z.enum(FOCUSES).default("speaking"),
  provider: Provider,
  strict: StrictField,
});
// Form B is the CEFR form: a focus, or a duration written like "45min".
const forms = bodyForms(FormA, FormB, (b) => "focus" in b || typeof b.duration === "string");

export type LessonInput = { topic: string; level: string; minutes: number; focus?: string };

const Text = z.string().trim().max(4000);
const Item = z.string().trim().max(1000);
const List = z.array(Item).max(20);

const Answer = z.object({
  title: z.string().trim().max(200),
  objectives: List,
  outline: z.object({ warm_up: Text, presentation: Text, practice: Text, production: Text, wrap_up: Text }),
  handout_content: List,
  video_suggestions: List,
  visual_aids: List,
  assessment_ideas: List,
  differentiation: z.object({ struggling: Text, advanced: Text }),
});
export type LessonAnswer = z.infer<typeof Answer>;

const Filled = Text.min(1);
/** What the model is sent: `lessonRules` as a schema (a title, every stage, 2+ objectives, an assessment idea, both differentiations). */
const LessonSentSchema = Answer.extend({
  title: Answer.shape.title.min(1),
  objectives: z.array(Item.min(1)).min(2).max(20),
  outline: z.object({ warm_up: Filled, presentation: Filled, practice: Filled, production: Filled, wrap_up: Filled }),
  assessment_ideas: z.array(Item.min(1)).min(1).max(20),
  differentiation: z.object({ struggling: Filled, advanced: Filled }),
});

/** What the schema cannot say: a usable plan has every stage, two objectives, and something for both ends of the class. */
export function lessonRules(plan: LessonAnswer): string[] {
  const problems: string[] = [];
  for (const s of SECTIONS)
    if (!plan.outline[s]) problems.push(`outline.${s} is empty: describe that stage's activities and minutes`);
  if (plan.objectives.filter(Boolean).length < 2) problems.push("objectives needs at least 2 learning objectives");
  if (!plan.assessment_ideas.filter(Boolean).length) problems.push("assessment_ideas needs at least 1 idea");
  if (!plan.differentiation.struggling || !plan.differentiation.advanced)
    problems.push("differentiation needs both struggling and advanced suggestions");
  if (!plan.title) problems.push("title is empty");
  return problems;
}

export const lessonTemplate: Template<LessonInput, typeof Answer> = {
  name: "lesson plan",
  system:
    "You are an experienced language teacher who writes classroom-ready lesson plans. Answer only with the JSON object asked for.",
  prompt: (i) =>
    `Write a lesson plan on "${i.topic}" for ${i.level} learners, lasting ${i.minutes} minutes` +
    `${i.focus ? `, focusing on ${i.focus}` : ""}.\n` +
    "Give a title; at least 2 measurable objectives; an outline whose five stages (warm_up, presentation, " +
    "practice, production, wrap_up) each describe the activities and their minutes, adding up to the lesson's length; " +
    "handout_content (the handout's items), video_suggestions (videos to search for), visual_aids, " +
    "assessment_ideas, and differentiation for struggling and advanced learners.",
  schema: Answer,
  sentSchema: () => LessonSentSchema,
  rules: lessonRules,
  maxTokens: 4000,
};

const Result = Answer.extend({
  level: z.string(),
  duration: z
    .union([z.number().int(), z.enum(DURATIONS)])
    .openapi({ description: "as sent: minutes (A) or 60min (B)" }),
  provider: z.string(),
  warnings: WarningsField,
});

const lessonPlan = gatewayRoute("key", {
  method: "post",
  path: "/v1/generate/lesson-plan",
  summary: "A lesson plan (Form A: topic, level, minutes; Form B: CEFR level, duration, focus)",
  tags: ["Generate"],
  request: jsonRequest(forms.schema),
  responses: { 200: jsonResponse(Result, "The lesson plan"), ...keyedErrors, ...providerErrors },
});

// The body is read again as the form its fields pick (the contract validated it as their union).
const handle: Handler<typeof lessonPlan> = async (c) => {
  const { form, body } = forms.parse(parsedJson(await c.request.text()));
  const input: LessonInput =
    form === "A"
      ? { topic: body.topic, level: body.level, minutes: body.duration }
      : { topic: body.topic, level: `CEFR ${body.level}`, minutes: parseInt(body.duration), focus: body.focus };
  const generated = await runTemplate(c, lessonTemplate, input, {
    provider: body.provider,
    strict: body.strict,
  });
  return respondGenerated(c, generated, { level: body.level, duration: body.duration });
};

export const lessonPlanRoutes: RouteDef[] = [route(lessonPlan, handle)];
