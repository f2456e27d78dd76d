import { describe, expect, it } from "vitest";
import { businessPlanRules, fixBusinessPlan, type PlanAnswer } from "./business-plan.ts";

const plan = (overrides: Partial<PlanAnswer> = {}): PlanAnswer => ({
  business_name: "Brewbot",
  executive_summary: "Robot coffee.",
  market_analysis: { market_size: "$2B", target_segments: [], trends: [], opportunities: [] },
  competitive_analysis: {
    direct_competitors: [{ name: "Cafe X", strengths: [], weaknesses: [] }],
    competitive_advantage: "Cheaper",
  },
  business_model: { revenue_streams: [], pricing_strategy: "", cost_structure: [] },
  operations_plan: {
    key_activities: [],
    resources_needed: [],
    milestones: [1, 2, 6].map((month) => ({ month, goal: "g" })),
  },
  financial_projections: {
    startup_costs: "",
    monthly_burn: "",
    break_even: "",
    year_1_revenue: "",
    year_3_revenue: "",
  },
  risk_assessment: [
    { risk: "a", mitigation: "b" },
    { risk: "c", mitigation: "d" },
  ],
  action_plan: { immediate: ["x"], short_term: ["y"], long_term: ["z"] },
  ...overrides,
});

describe("businessPlanRules", () => {
  it("accepts a brief plan with 1 competitor, 2 risks and 3 milestones", () => {
    expect(businessPlanRules(plan(), { detail: "brief" })).toEqual([]);
  });

  it("asks for more at the comprehensive level", () => {
    expect(businessPlanRules(plan(), { detail: "comprehensive" })).toEqual([
      "competitive_analysis.direct_competitors needs at least 3",
      "risk_assessment needs at least 5 risks",
      "operations_plan.milestones needs at least 6 milestones",
    ]);
  });

  it("names a month below 1 and an empty action plan part", () => {
    const operations_plan = { ...plan().operations_plan, milestones: [0, 1, 6].map((month) => ({ month, goal: "g" })) };
    const action_plan = { immediate: ["x"], short_term: [], long_term: ["z"] };
    expect(businessPlanRules(plan({ operations_plan, action_plan }), { detail: "brief" })).toEqual([
      "operations_plan.milestones months (0, 1, 6) must be 1 or more",
      "action_plan.short_term is empty",
    ]);
  });
});

describe("fixBusinessPlan", () => {
  it("puts the milestones in the order of their months, keeping equal months as written", () => {
    const milestones = [
      { month: 6, goal: "launch" },
      { month: 1, goal: "hire" },
      { month: 1, goal: "lease" },
    ];
    const fixed = fixBusinessPlan(plan({ operations_plan: { ...plan().operations_plan, milestones } }));
    expect(fixed.operations_plan.milestones.map((m) => m.goal)).toEqual(["hire", "lease", "launch"]);
    expect(businessPlanRules(fixed, { detail: "brief" })).toEqual([]);
  });
});
