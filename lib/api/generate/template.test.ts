import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { minimalInstance, type JsonSchema } from "../../../test/fakes/schema-only-llm.ts";
import { businessPlanTemplate } from "./business-plan.ts";
import { itineraryTemplate } from "./itinerary.ts";
import { lessonTemplate } from "./lesson-plan.ts";
import { modelSchema } from "./model-schema.ts";
import { resumeInput, resumeTemplate } from "./resume.ts";
import { storyTemplate } from "./story.ts";
import { betterAttempt, type Attempt, type Template } from "./template.ts";

describe("betterAttempt", () => {
  const ok = (problems: string[]): Attempt<string> => ({ value: "v", problems, text: "" });
  const unparsed: Attempt<string> = { problems: ["not JSON"], text: "" };

  it("keeps the repaired answer unless it did not parse or breaks more rules", () => {
    const first = ok(["a", "b"]);
    const second = ok(["c", "d"]);
    expect(betterAttempt(first, second)).toBe(second);
    expect(betterAttempt(first, ok(["a", "b", "c"]))).toBe(first);
    expect(betterAttempt(first, unparsed)).toBe(first);
    expect(betterAttempt(unparsed, second)).toBe(second);
    expect(betterAttempt(unparsed, unparsed)).toBe(unparsed);
  });
});

// Each case pairs a template with an input of its own type: the input is passed through untyped.
type AnyTemplate = Template<never, z.ZodType>;

/** What the template makes of the least answer its sent schema allows: the rules still broken. */
async function leastAnswerProblems(template: AnyTemplate, input: unknown): Promise<string[]> {
  const given = input as never;
  const schema = modelSchema(template.sentSchema?.(given) ?? template.schema, template.schema);
  const parsed = await schema.validate!(minimalInstance((await schema.jsonSchema) as JsonSchema));
  if (!parsed.success) throw parsed.error;
  const value = template.fix ? template.fix(parsed.value, given) : parsed.value;
  return template.rules?.(value, given) ?? [];
}

describe("every rule a schema can say is in the schema sent", () => {
  it("the least answer to each template's schema keeps every rule but a story's graph", async () => {
    const trip = { destination: "Lisbon", interests: [], budget: "moderate" };
    const cases: Array<[AnyTemplate, unknown]> = [
      [itineraryTemplate, { ...trip, days: 1 }],
      [itineraryTemplate, { ...trip, days: 30 }],
      [lessonTemplate, { topic: "Weather", level: "B1", minutes: 60 }],
      ...(["brief", "standard", "comprehensive"] as const).map((detail): [AnyTemplate, unknown] => [
        businessPlanTemplate,
        { idea: "Robot coffee", detail },
      ]),
      [resumeTemplate, resumeInput({ experience: "Five years", format: "text", style: "professional" })],
      [
        resumeTemplate,
        resumeInput({
          name: "Ana Silva",
          experience: [{ company: "Acme" }, { company: "Initech" }],
          education: [{ degree: "BSc" }],
          format: "markdown",
          style: "creative",
        }),
      ],
    ];
    for (const [template, input] of cases)
      expect(await leastAnswerProblems(template, input), template.name).toEqual([]);

    for (const complexity of ["simple", "medium", "complex"] as const) {
      const problems = await leastAnswerProblems(storyTemplate, { premise: "p", complexity });
      expect(problems.join("\n")).not.toMatch(/ nodes, this one has /);
    }
  });
});
