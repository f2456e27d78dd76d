import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { parsedJson } from "../../gateway/pipeline/validate.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { providerErrors } from "../../llm/route-schemas.ts";
import { bodyForms } from "./body-forms.ts";
import { respondGenerated } from "./respond.ts";
import { runTemplate, StrictField, WarningsField, type Template } from "./template.ts";

const DETAIL_LEVELS = ["brief", "standard", "comprehensive"] as const;
type DetailLevel = (typeof DETAIL_LEVELS)[number];

const Idea = z.string().trim().min(1).max(2000);
const Short = z.string().trim().min(1).max(200).optional();
const Provider = z.string().max(50).optional().openapi({ description: "default xai" });

const FormA = z.object({ idea: Idea, industry: Short, target_market: Short, provider: Provider, strict: StrictField });
const FormB = z.object({
  idea: Idea,
  industry: Short,
  location: Short,
  stage: z.enum(["idea", "startup", "growth", "expansion"]).default("startup"),
  detail_level: z.enum(DETAIL_LEVELS).default("standard"),
  provider: Provider,
  strict: StrictField,
});
// Form B places the business and says how far along it is.
const forms = bodyForms(FormA, FormB, (b) => "location" in b || "stage" in b || "detail_level" in b);

export type PlanInput = {
  idea: string;
  industry?: string;
  target_market?: string;
  location?: string;
  stage?: string;
  detail: DetailLevel;
};

const Text = z.string().trim().max(4000);
const List = z.array(z.string().trim().max(1000)).max(20);
// Months are whatever the model wrote: `fixBusinessPlan` puts the milestones in their order.
const Milestone = z.object({ month: z.number().int(), goal: Text });

const Answer = z.object({
  business_name: z.string().trim().max(200),
  executive_summary: Text,
  market_analysis: z.object({ market_size: Text, target_segments: List, trends: List, opportunities: List }),
  competitive_analysis: z.object({
    direct_competitors: z.array(z.object({ name: Text, strengths: List, weaknesses: List })).max(10),
    competitive_advantage: Text,
  }),
  business_model: z.object({ revenue_streams: List, pricing_strategy: Text, cost_structure: List }),
  operations_plan: z.object({
    key_activities: List,
    resources_needed: List,
    milestones: z.array(Milestone).max(24),
  }),
  financial_projections: z.object({
    startup_costs: Text,
    monthly_burn: Text,
    break_even: Text,
    year_1_revenue: Text,
    year_3_revenue: Text,
  }),
  risk_assessment: z.array(z.object({ risk: Text, mitigation: Text })).max(15),
  action_plan: z.object({ immediate: List, short_term: List, long_term: List }),
});
export type PlanAnswer = z.infer<typeof Answer>;

/** How many of the counted parts each detail level asks for (competitors, risks, milestones). */
export const DETAIL: Record<DetailLevel, { competitors: number; risks: number; milestones: number; tokens: number }> = {
  brief: { competitors: 1, risks: 2, milestones: 3, tokens: 3000 },
  standard: { competitors: 2, risks: 3, milestones: 4, tokens: 5000 },
  comprehensive: { competitors: 3, risks: 5, milestones: 6, tokens: 8000 },
};

/** What the model is sent: `businessPlanRules` as a schema, counts by the detail level, months from 1. */
export function businessPlanSentSchema(input: Pick<PlanInput, "detail">) {
  const want = DETAIL[input.detail];
  const { competitive_analysis, operations_plan } = Answer.shape;
  return Answer.extend({
    business_name: Answer.shape.business_name.min(1),
    executive_summary: Text.min(1),
    competitive_analysis: competitive_analysis.extend({
      direct_competitors: competitive_analysis.shape.direct_competitors.min(want.competitors),
    }),
    operations_plan: operations_plan.extend({
      milestones: z
        .array(Milestone.extend({ month: z.number().int().min(1) }))
        .min(want.milestones)
        .max(24),
    }),
    risk_assessment: Answer.shape.risk_assessment.min(want.risks),
    action_plan: z.object({ immediate: List.min(1), short_term: List.min(1), long_term: List.min(1) }),
  });
}

/** What needs no model: milestones in the order of their months (a stable sort keeps equal months as written). */
export function fixBusinessPlan(plan: PlanAnswer): PlanAnswer {
  const milestones = [...plan.operations_plan.milestones].sort((a, b) => a.month - b.month);
  return { ...plan, operations_plan: { ...plan.operations_plan, milestones } };
}

/** After `fixBusinessPlan`: the counted parts reach the detail level, months start at 1, nothing is empty. */
export function businessPlanRules(plan: PlanAnswer, input: Pick<PlanInput, "detail">): string[] {
  const want = DETAIL[input.detail];
  const problems: string[] = [];
  if (!plan.business_name) problems.push("business_name is empty");
  if (!plan.executive_summary) problems.push("executive_summary is empty");
  if (plan.competitive_analysis.direct_competitors.length < want.competitors)
    problems.push(`competitive_analysis.direct_competitors needs at least ${want.competitors}`);
  if (plan.risk_assessment.length < want.risks) problems.push(`risk_assessment needs at least ${want.risks} risks`);
  const months = plan.operations_plan.milestones.map((m) => m.month);
  if (months.length < want.milestones)
    problems.push(`operations_plan.milestones needs at least ${want.milestones} milestones`);
  if (months.some((m) => m < 1))
    problems.push(`operations_plan.milestones months (${months.join(", ")}) must be 1 or more`);
  for (const part of ["immediate", "short_term", "long_term"] as const)
    if (!plan.action_plan[part].length) problems.push(`action_plan.${part} is empty`);
  return problems;
}

export const businessPlanTemplate: Template<PlanInput, typeof Answer> = {
  name: "business plan",
  system:
    "You are a startup advisor who writes concrete, realistic business plans with plausible numbers. " +
    "Answer only with the JSON object asked for.",
  prompt: (i) => {
    const want = DETAIL[i.detail];
    return (
      `Write a ${i.detail} business plan for this idea: ${i.idea}\n` +
      [
        i.industry && `Industry: ${i.industry}`,
        i.target_market && `Target market: ${i.target_market}`,
        i.location && `Location: ${i.location}`,
        i.stage && `Stage: ${i.stage}`,
      ]
        .filter(Boolean)
        .join("\n") +
      `\nGive at least ${want.competitors} direct competitors, ${want.risks} risks with mitigations and ` +
      `${want.milestones} milestones (month numbers from 1, in order). Money amounts are strings with their currency.`
    );
  },
  schema: Answer,
  sentSchema: businessPlanSentSchema,
  fix: fixBusinessPlan,
  rules: businessPlanRules,
};

const businessPlan = gatewayRoute("key", {
  method: "post",
  path: "/v1/generate/business-plan",
  summary: "A business plan (Form A: industry, target market; Form B: location, stage, detail level)",
  tags: ["Generate"],
  request: jsonRequest(forms.schema),
  responses: {
    200: jsonResponse(Answer.extend({ provider: z.string(), warnings: WarningsField }), "The business plan"),
    ...keyedErrors,
    ...providerErrors,
  },
});

// The body is read again as the form its fields pick (the contract validated it as their union).
const handle: Handler<typeof businessPlan> = async (c) => {
  const { form, body } = forms.parse(parsedJson(await c.request.text()));
  const input: PlanInput =
    form === "A"
      ? { idea: body.idea, industry: body.industry, target_market: body.target_market, detail: "standard" }
      : {
          idea: body.idea,
          industry: body.industry,
          location: body.location,
          stage: body.stage,
          detail: body.detail_level,
        };
  const generated = await runTemplate(c, { ...businessPlanTemplate, maxTokens: DETAIL[input.detail].tokens }, input, {
    provider: body.provider,
    strict: body.strict,
  });
  return respondGenerated(c, generated);
};

export const businessPlanRoutes: RouteDef[] = [route(businessPlan, handle)];
