import { describe, expect, it } from "vitest";
import { resumeInput, resumeTemplate, type ResumeRecord } from "./resume.ts";

const record = (over: Partial<ResumeRecord> = {}): ResumeRecord => ({
  header: { name: "Ada Lovelace", title: "Engineer", contact: "" },
  professional_summary: "Engineer.",
  experience: [{ title: "Engineer", company: "Acme", dates: "2020", bullets: ["Built things"] }],
  education: [],
  skills: { technical: [], soft: [] },
  keywords: [],
  ...over,
});

const formB = resumeInput({
  name: "Ada Lovelace",
  title: "Backend Engineer",
  experience: [{ title: "Engineer", company: "Acme", highlights: ["Built things"] }],
  format: "markdown",
  style: "technical",
});

describe("resumeInput", () => {
  it("tells the forms apart by experience's type and splits Form A's skills text", () => {
    const a = resumeInput({
      experience: "Five years at Acme",
      skills: "Go, SQL;\nK8s",
      format: "text",
      style: "professional",
    });
    expect(a).toMatchObject({
      form: "A",
      experienceText: "Five years at Acme",
      roles: [],
      skills: ["Go", "SQL", "K8s"],
    });
    expect(formB).toMatchObject({ form: "B", targetRole: "Backend Engineer", roles: [{ company: "Acme" }] });
  });
});

describe("resume rules", () => {
  const rules = resumeTemplate.rules!;

  it("accepts a record that keeps the input's name and roles", () => {
    expect(rules(record(), formB)).toEqual([]);
  });

  it("names too few experience and education entries", () => {
    const twoRoles = resumeInput({
      name: "Ada Lovelace",
      experience: [{ company: "Acme" }, { company: "Initech" }],
      education: [{ degree: "BSc" }],
      format: "markdown",
      style: "professional",
    });
    expect(rules(record(), twoRoles)).toEqual([
      "experience must have exactly 2 entries (one per input role, in order), not 1",
      "education must have exactly 1 entry (one per input item), not 0",
    ]);
  });

  it("fixes what the input gives: the name, each role's company, no entries beyond the input's", () => {
    const bad = record({
      header: { name: "A. Lovelace", title: "", contact: "" },
      experience: [
        { title: "Engineer", company: "Initech", dates: "", bullets: ["x"] },
        { title: "Extra", company: "Made up", dates: "", bullets: ["y"] },
      ],
      education: [{ degree: "PhD", institution: "Nowhere", year: "", honors: "" }],
    });
    const fixed = resumeTemplate.fix!(bad, formB);
    expect(fixed.header.name).toBe("Ada Lovelace");
    expect(fixed.experience).toEqual([{ title: "Engineer", company: "Acme", dates: "", bullets: ["x"] }]);
    expect(fixed.education).toEqual([]);
    expect(rules(fixed, formB)).toEqual([]);
  });

  it("Form A: a name given is copied, none given leaves the model's", () => {
    const named = resumeInput({ experience: "x", name: "Ana Silva", format: "markdown", style: "professional" });
    expect(resumeTemplate.fix!(record(), named).header.name).toBe("Ana Silva");
    const unnamed = resumeInput({ experience: "x", format: "markdown", style: "professional" });
    expect(resumeTemplate.fix!(record(), unnamed)).toEqual(record());
  });

  it("wants at least one experience entry from Form A's text", () => {
    const a = resumeInput({ experience: "Five years at Acme", format: "markdown", style: "professional" });
    expect(rules(record({ experience: [] }), a)).toEqual([
      "experience must have at least one entry for the roles described in the input",
    ]);
  });

  it("prompts Form B with the exact counts and the style's tone", () => {
    const prompt = resumeTemplate.prompt(formB);
    expect(prompt).toContain("exactly 1 entry,");
    expect(prompt).toContain("Education: none given");
    expect(prompt).toContain("Tone: technical");
  });
});
