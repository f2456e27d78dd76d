import { describe, expect, it } from "vitest";
import { atsBreakdown, atsScore, stem, terms, type ScoredResume } from "./ats-score.ts";

const resume = (over: Partial<ScoredResume> = {}): ScoredResume => ({
  header: { title: "Backend Engineer", contact: "ada@example.com" },
  professional_summary: "Backend engineer with eight years building payment systems in Go and PostgreSQL at scale.",
  experience: [
    {
      title: "Senior Engineer",
      company: "Acme",
      bullets: ["Cut API latency by 40% with caching", "Led a team of 5 engineers on the payments platform"],
    },
  ],
  education: [{ degree: "BSc Computer Science", institution: "UCL", honors: "" }],
  skills: { technical: ["Go", "PostgreSQL", "Kubernetes"], soft: ["Mentoring"] },
  keywords: ["payments", "Kubernetes"],
  ...over,
});

describe("stem and terms", () => {
  it("meets plural and verb forms at one stem", () => {
    expect(stem("engineers")).toBe(stem("engineering"));
    expect(stem("managed")).toBe(stem("manages"));
    expect(stem("managing")).toBe(stem("manage"));
    expect(stem("companies")).toBe("company");
    expect(stem("processes")).toBe("process");
    expect(stem("class")).toBe("class");
  });

  it("keeps C++ and C#, drops stop words and single letters", () => {
    expect(terms("C++ and C# for a Team")).toEqual(["c++", "c#", "team"]);
  });
});

describe("atsBreakdown", () => {
  it("scores coverage of the role and keywords plus the structure checks", () => {
    const b = atsBreakdown(resume(), "Backend Engineer");
    expect(b.terms).toEqual(["backend", "engineer", "payment", "kubernet"]);
    expect(b.matched).toEqual(b.terms);
    expect(Object.values(b.checks).every(Boolean)).toBe(true);
    expect(b.score).toBe(100);
  });

  it("does not count the keywords list itself as coverage", () => {
    const b = atsBreakdown(resume({ keywords: ["Terraform", "payments"] }), "Backend Engineer");
    expect(b.matched).not.toContain("terraform");
    // 3 of 4 terms: round(70 * 0.75 + 30)
    expect(b.score).toBe(83);
  });

  it("falls back to the resume's title when no role is given, and scores 0 coverage with no terms", () => {
    expect(atsBreakdown(resume({ keywords: [] })).terms).toEqual(["backend", "engineer"]);
    const empty = resume({ header: { title: "", contact: "x" }, keywords: [] });
    expect(atsBreakdown(empty).score).toBe(30);
  });

  it("takes 6 points off for each failed structure check", () => {
    const weak = resume({
      header: { title: "Backend Engineer", contact: "" },
      professional_summary: "Engineer.",
      experience: [{ title: "Engineer", company: "Acme", bullets: ["Wrote code for the payments backend"] }],
      skills: { technical: ["Go"], soft: [] },
    });
    const b = atsBreakdown(weak, "Backend Engineer");
    expect(b.checks).toEqual({
      summary: false,
      bullets_per_role: false,
      quantified: false,
      skills: false,
      contact: false,
    });
    // kubernetes appears nowhere but the keywords: 3 of 4 terms.
    expect(b.score).toBe(Math.round(70 * 0.75));
    expect(atsScore(weak, "Backend Engineer")).toBe(b.score);
  });
});
