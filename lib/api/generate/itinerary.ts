import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { parsedJson } from "../../gateway/pipeline/validate.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { providerErrors } from "../../llm/route-schemas.ts";
import { bodyForms } from "./body-forms.ts";
import { respondGenerated } from "./respond.ts";
import { runTemplate, StrictField, WarningsField, type Template } from "./template.ts";

const Destination = z.string().trim().min(1).max(200);
const Days = z.number().int().min(1).max(30);
const Provider = z.string().max(50).optional().openapi({ description: "default xai" });

const FormA = z.object({
  destination: Destination,
  days: Days.openapi({ description: "Form A: number of days, 1-30" }),
  interests: z.string().trim().max(1000).optional(),
  budget: z.enum(["budget", "mid-range", "luxury"]).default("mid-range"),
  provider: Provider,
  strict: StrictField,
});
const FormB = z.object({
  destination: Destination,
  duration: Days.default(3).openapi({ description: "Form B: number of days, 1-30" }),
  interests: z.array(z.string().trim().min(1).max(200)).max(20).optional(),
  budget: z.enum(["budget", "moderate", "luxury"]).default("moderate"),
  travelers: z.enum(["solo", "couple", "family", "group"]).default("couple"),
  pace: z.enum(["relaxed", "moderate", "packed"]).default("moderate"),
  provider: Provider,
  strict: StrictField,
});
// Form A counts `days`; Form B calls it `duration` (and defaults it).
const forms = bodyForms(FormA, FormB, (b) => !("days" in b));

export type TripInput = {
  destination: string;
  days: number;
  interests: string[];
  budget: string;
  travelers?: string;
  pace?: string;
};

const Text = z.string().trim().max(2000);
const List = z.array(z.string().trim().max(500)).max(20);

// Day numbers are whatever the model wrote: `fixItinerary` orders and renumbers them.
const Day = z.object({
  day: z.number().int(),
  theme: Text,
  activities: z
    .array(
      z.object({ time: Text, activity: Text, duration: Text, cost_estimate: Text, tips: Text }).partial({ tips: true }),
    )
    .max(15),
  meals: z.object({ breakfast: Text, lunch: Text, dinner: Text }),
});

const Answer = z.object({
  destination: Text,
  overview: Text,
  daily_itinerary: z.array(Day).max(40),
  practical_info: z.object({
    best_time_to_visit: Text,
    transportation: Text,
    accommodation_areas: List,
    estimated_daily_budget: Text,
    essential_apps: List,
    etiquette_tips: List,
  }),
  must_try: z.object({ foods: List, experiences: List, neighborhoods: List }),
});
export type TripAnswer = z.infer<typeof Answer>;

/**
 * What the model is sent: exactly the days asked, each numbered within 1..N with at least one activity,
 * the destination as given, an overview.
 */
export function itinerarySentSchema(input: Pick<TripInput, "days" | "destination">) {
  const day = Day.extend({
    day: z.number().int().min(1).max(input.days),
    activities: Day.shape.activities.min(1),
  });
  return Answer.extend({
    destination: z.literal(input.destination),
    overview: Text.min(1),
    daily_itinerary: z.array(day).length(input.days),
  });
}

/**
 * What needs no model: the destination is the one asked for, and the days are put in the order of the
 * model's numbers, cut to the days asked and numbered 1..N.
 */
export function fixItinerary(plan: TripAnswer, input: Pick<TripInput, "days" | "destination">): TripAnswer {
  const days = [...plan.daily_itinerary]
    .sort((a, b) => a.day - b.day)
    .slice(0, input.days)
    .map((d, i) => ({ ...d, day: i + 1 }));
  return { ...plan, destination: input.destination, daily_itinerary: days };
}

/** After `fixItinerary`: every day asked is there, each with something to do, and there is an overview. */
export function itineraryRules(plan: TripAnswer, input: Pick<TripInput, "days">): string[] {
  const days = plan.daily_itinerary;
  const problems: string[] = [];
  if (days.length !== input.days)
    problems.push(`daily_itinerary has ${days.length} days; it must have exactly ${input.days}`);
  const idle = days.filter((d) => d.activities.length === 0).map((d) => d.day);
  if (idle.length) problems.push(`day ${idle.join(", ")} has no activities`);
  if (!plan.overview) problems.push("overview is empty");
  return problems;
}

export const itineraryTemplate: Template<TripInput, typeof Answer> = {
  name: "itinerary",
  system:
    "You are a travel planner who writes realistic day-by-day itineraries. Answer only with the JSON object asked for.",
  prompt: (i) =>
    `Plan a ${i.days}-day trip to ${i.destination} on a ${i.budget} budget` +
    `${i.travelers ? ` for ${i.travelers === "solo" ? "a solo traveller" : `a ${i.travelers}`}` : ""}` +
    `${i.pace ? ` at a ${i.pace} pace` : ""}` +
    `${i.interests.length ? `, for someone interested in ${i.interests.join(", ")}` : ""}.\n` +
    `daily_itinerary must have exactly ${i.days} entries, day 1 to day ${i.days} in order, each with a theme, ` +
    "timed activities (time, activity, duration, cost_estimate, tips) and meals (breakfast, lunch, dinner). " +
    "Add an overview, practical_info (best_time_to_visit, transportation, accommodation_areas, " +
    "estimated_daily_budget, essential_apps, etiquette_tips) and must_try (foods, experiences, neighborhoods).",
  schema: Answer,
  sentSchema: itinerarySentSchema,
  fix: fixItinerary,
  rules: itineraryRules,
};

/** A long trip is a long answer: about 350 tokens a day, plus the rest. */
export const itineraryMaxTokens = (days: number) => 1500 + 350 * days;

const Result = Answer.extend({
  duration: z.number().int().min(1).max(30),
  provider: z.string(),
  warnings: WarningsField,
});

const itinerary = gatewayRoute("key", {
  method: "post",
  path: "/v1/generate/itinerary",
  summary: "A day-by-day travel itinerary (Form A: days; Form B: duration, travelers, pace)",
  tags: ["Generate"],
  request: jsonRequest(forms.schema),
  responses: { 200: jsonResponse(Result, "The itinerary, one entry per day asked"), ...keyedErrors, ...providerErrors },
});

// The body is read again as the form its fields pick (the contract validated it as their union).
const handle: Handler<typeof itinerary> = async (c) => {
  const { form, body } = forms.parse(parsedJson(await c.request.text()));
  const input: TripInput =
    form === "A"
      ? {
          destination: body.destination,
          days: body.days,
          interests: body.interests ? [body.interests] : [],
          budget: body.budget,
        }
      : {
          destination: body.destination,
          days: body.duration,
          interests: body.interests ?? [],
          budget: body.budget,
          travelers: body.travelers,
          pace: body.pace,
        };
  const generated = await runTemplate(c, { ...itineraryTemplate, maxTokens: itineraryMaxTokens(input.days) }, input, {
    provider: body.provider,
    strict: body.strict,
  });
  return respondGenerated(c, generated, { duration: input.days });
};

export const itineraryRoutes: RouteDef[] = [route(itinerary, handle)];
