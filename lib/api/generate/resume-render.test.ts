import { describe, expect, it } from "vitest";
import { renderResume, type RenderedResume } from "./resume-render.ts";

const record: RenderedResume = {
  header: { name: "Ada Lovelace", title: "Backend Engineer", contact: "ada@example.com" },
  professional_summary: "Engineer of payment systems.",
  experience: [
    { title: "Senior Engineer", company: "Acme", dates: "2019–2024", bullets: ["Cut latency by 40%", "Led 5"] },
    { title: "Engineer", company: "", dates: "", bullets: ["Wrote Go"] },
  ],
  education: [{ degree: "BSc", institution: "UCL", year: "2015", honors: "First" }],
  skills: { technical: ["Go", "SQL"], soft: [] },
};

describe("renderResume", () => {
  it("lays the record out as Markdown", () => {
    expect(renderResume(record, "markdown")).toBe(
      [
        "# Ada Lovelace",
        "**Backend Engineer** · ada@example.com",
        "## Summary",
        "Engineer of payment systems.",
        "## Experience",
        "### Senior Engineer, Acme\n*2019–2024*",
        "- Cut latency by 40%\n- Led 5",
        "### Engineer",
        "- Wrote Go",
        "## Education",
        "- BSc, UCL (2015) — First",
        "## Skills",
        "**Technical:** Go, SQL",
      ].join("\n\n") + "\n",
    );
  });

  it("lays the record out as plain text, without markup", () => {
    const text = renderResume(record, "text");
    expect(text).toBe(
      [
        "Ada Lovelace\nBackend Engineer | ada@example.com",
        "SUMMARY\nEngineer of payment systems.",
        "EXPERIENCE\nSenior Engineer, Acme (2019–2024)\n- Cut latency by 40%\n- Led 5\n\nEngineer\n- Wrote Go",
        "EDUCATION\nBSc, UCL (2015) — First",
        "SKILLS\nTechnical: Go, SQL",
      ].join("\n\n") + "\n",
    );
    expect(text).not.toMatch(/[#*]/);
  });

  it("leaves out empty sections", () => {
    const bare = { ...record, professional_summary: "", education: [], skills: { technical: [], soft: [] } };
    expect(renderResume(bare, "markdown")).not.toMatch(/Summary|Education|Skills/);
  });
});
