import { describe, expect, it } from "vitest";
import { lessonRules, type LessonAnswer } from "./lesson-plan.ts";

const plan = (overrides: Partial<LessonAnswer> = {}): LessonAnswer => ({
  title: "Ordering food",
  objectives: ["Order a meal", "Ask about ingredients"],
  outline: { warm_up: "a", presentation: "b", practice: "c", production: "d", wrap_up: "e" },
  handout_content: [],
  video_suggestions: [],
  visual_aids: [],
  assessment_ideas: ["Checklist"],
  differentiation: { struggling: "Frames", advanced: "Complaints" },
  ...overrides,
});

describe("lessonRules", () => {
  it("accepts a complete plan", () => {
    expect(lessonRules(plan())).toEqual([]);
  });

  it("names each empty outline section", () => {
    const outline = { ...plan().outline, practice: "", wrap_up: "" };
    expect(lessonRules(plan({ outline }))).toEqual([
      "outline.practice is empty: describe that stage's activities and minutes",
      "outline.wrap_up is empty: describe that stage's activities and minutes",
    ]);
  });

  it("needs two objectives (blank ones do not count), an assessment idea and both differentiations", () => {
    const problems = lessonRules(
      plan({ objectives: ["One", ""], assessment_ideas: [], differentiation: { struggling: "x", advanced: "" } }),
    );
    expect(problems).toEqual([
      "objectives needs at least 2 learning objectives",
      "assessment_ideas needs at least 1 idea",
      "differentiation needs both struggling and advanced suggestions",
    ]);
  });
});
