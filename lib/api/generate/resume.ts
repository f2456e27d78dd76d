import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { providerErrors } from "../../llm/route-schemas.ts";
import { atsScore } from "./ats-score.ts";
import { respondGenerated } from "./respond.ts";
import { renderResume, RESUME_FORMATS, type ResumeFormat } from "./resume-render.ts";
import { runTemplate, StrictField, WarningsField, type Template } from "./template.ts";

export const RESUME_STYLES = ["professional", "creative", "technical", "executive"] as const;
type ResumeStyle = (typeof RESUME_STYLES)[number];

// ---- The request: Form A is free-text experience, Form B structured roles (told apart by experience's type).

const ExperienceIn = z.object({
  title: z.string().max(200).optional(),
  company: z.string().max(200).optional(),
  dates: z.string().max(100).optional(),
  highlights: z.array(z.string().max(1000)).max(30).optional(),
});
const EducationIn = z.object({
  degree: z.string().max(300).optional(),
  institution: z.string().max(300).optional(),
  year: z.union([z.number().int(), z.string().max(40)]).optional(),
});

const ResumeBody = z
  .object({
    experience: z
      .union([z.string().min(1).max(20_000), z.array(ExperienceIn).max(30)])
      .optional()
      .openapi({ description: "Form A: free text (required). Form B: an array of roles" }),
    name: z.string().trim().min(1).max(200).optional().openapi({ description: "Form B: required" }),
    skills: z
      .union([z.string().max(5000), z.array(z.string().max(100)).max(100)])
      .optional()
      .openapi({ description: "Form A: text; Form B: an array" }),
    target_role: z.string().max(200).optional().openapi({ description: "Form A; Form B uses title unless given" }),
    format: z.enum(RESUME_FORMATS).default("markdown").openapi({ description: "Form A" }),
    title: z.string().max(200).optional().openapi({ description: "Form B" }),
    summary: z.string().max(5000).optional().openapi({ description: "Form B" }),
    education: z.array(EducationIn).max(20).optional().openapi({ description: "Form B" }),
    style: z.enum(RESUME_STYLES).default("professional").openapi({ description: "Form B" }),
    contact: z.string().max(500).optional().openapi({ description: "Email, phone, links (gateway extension)" }),
    provider: z.string().max(40).optional().openapi({ description: "Default xai" }),
    strict: StrictField,
  })
  .superRefine((b, ctx) => {
    if (b.experience === undefined && b.name === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["experience"],
        message: "give experience as text (Form A) or name with structured fields (Form B)",
      });
    else if (Array.isArray(b.experience) && b.name === undefined)
      ctx.addIssue({ code: "custom", path: ["name"], message: "name is required in Form B (experience as an array)" });
  });
type ResumeBody = z.infer<typeof ResumeBody>;

/** What the template is given: either form, normalised. */
export type ResumeInput = {
  form: "A" | "B";
  name?: string;
  contact?: string;
  targetRole?: string;
  title?: string;
  summary?: string;
  /** Form A's free text. */
  experienceText?: string;
  /** Form B's roles, in order. */
  roles: z.infer<typeof ExperienceIn>[];
  education: z.infer<typeof EducationIn>[];
  skills: string[];
  style: ResumeStyle;
};

export function resumeInput(b: Omit<ResumeBody, "strict">): ResumeInput {
  const skills =
    typeof b.skills === "string"
      ? b.skills
          .split(/[,;\n]/)
          .map((s) => s.trim())
          .filter(Boolean)
      : (b.skills ?? []);
  const formA = typeof b.experience === "string";
  return {
    form: formA ? "A" : "B",
    name: b.name,
    contact: b.contact,
    targetRole: b.target_role || (formA ? undefined : b.title),
    title: b.title,
    summary: b.summary,
    experienceText: formA ? (b.experience as string) : undefined,
    roles: Array.isArray(b.experience) ? b.experience : [],
    education: b.education ?? [],
    skills,
    style: b.style,
  };
}

// ---- The model's answer: the resume record without ats_score (ours, by rule) or provider.

const text = (max: number) => z.string().trim().max(max);
export const ResumeRecord = z.object({
  header: z.object({ name: text(200).min(1), title: text(200), contact: text(500) }),
  professional_summary: text(3000).min(1),
  experience: z
    .array(
      z.object({
        title: text(200),
        company: text(200),
        dates: text(100),
        bullets: z.array(text(600).min(1)).min(1).max(15),
      }),
    )
    .max(30),
  education: z
    .array(z.object({ degree: text(300), institution: text(300), year: text(40), honors: text(300) }))
    .max(20),
  skills: z.object({ technical: z.array(text(100)).max(60), soft: z.array(text(100)).max(40) }),
  keywords: z.array(text(100)).max(40),
});
export type ResumeRecord = z.infer<typeof ResumeRecord>;

const STYLE_NOTES: Record<ResumeStyle, string> = {
  professional: "Tone: professional and concise, achievement-led.",
  creative: "Tone: warm and vivid while staying factual; show initiative and range.",
  technical: "Tone: technical; name the languages, systems and methods used in each bullet.",
  executive: "Tone: executive; lead with scope, strategy, budgets, teams led and business results.",
};

const entries = (n: number) => (n === 1 ? "1 entry" : `${n} entries`);

export const resumeTemplate: Template<ResumeInput, typeof ResumeRecord> = {
  name: "resume",
  system:
    "You write ATS-friendly resumes. Answer with one JSON object: header {name, title, contact}, " +
    "professional_summary, experience [{title, company, dates, bullets}], education [{degree, institution, " +
    "year, honors}], skills {technical, soft}, keywords. Use only facts from the input: never invent " +
    "employers, dates, degrees, contact details or numbers; an unknown field is an empty string. Bullets " +
    "start with a strong verb and keep the input's figures. keywords are 5-20 terms a recruiter for the " +
    "target role would search for.",
  schema: ResumeRecord,
  maxTokens: 4000,
  prompt(input) {
    const lines = [STYLE_NOTES[input.style]];
    if (input.name) lines.push(`Name (header.name, exactly): ${input.name}`);
    if (input.contact) lines.push(`Contact: ${input.contact}`);
    if (input.targetRole) lines.push(`Target role: ${input.targetRole}`);
    if (input.title && input.title !== input.targetRole) lines.push(`Title: ${input.title}`);
    if (input.summary) lines.push(`Summary given: ${input.summary}`);
    if (input.skills.length) lines.push(`Skills: ${input.skills.join(", ")}`);
    if (input.form === "A") {
      lines.push(
        "Experience, as written by the candidate (one experience entry per role it describes, at least one):",
        input.experienceText!,
      );
      if (!input.name) lines.push("No name was given: take it from the text.");
    } else {
      lines.push(
        `Experience: exactly ${entries(input.roles.length)}, one per role below, in this order, each with at least one bullet:`,
        JSON.stringify(input.roles),
        input.education.length
          ? `Education: exactly ${entries(input.education.length)}, one per item below, in this order:\n${JSON.stringify(input.education)}`
          : "Education: none given; answer an empty array.",
      );
    }
    return lines.join("\n");
  },
  sentSchema(input) {
    const { header, experience, education } = ResumeRecord.shape;
    return ResumeRecord.extend({
      header: input.name ? header.extend({ name: z.literal(input.name) }) : header,
      experience: input.form === "B" ? experience.length(input.roles.length) : experience.min(1),
      education: input.form === "B" ? education.length(input.education.length) : education,
    });
  },
  // The name and companies given are copied in; Form B's surplus entries (beyond the input's) are dropped.
  fix(result, input) {
    const header = input.name ? { ...result.header, name: input.name } : result.header;
    if (input.form === "A") return { ...result, header };
    const experience = result.experience.slice(0, input.roles.length).map((entry, i) => {
      const company = input.roles[i]!.company?.trim();
      return company ? { ...entry, company } : entry;
    });
    return { ...result, header, experience, education: result.education.slice(0, input.education.length) };
  },
  rules(result, input) {
    const problems: string[] = [];
    if (input.form === "A" && result.experience.length === 0)
      problems.push("experience must have at least one entry for the roles described in the input");
    if (input.form === "B") {
      if (result.experience.length !== input.roles.length)
        problems.push(
          `experience must have exactly ${entries(input.roles.length)} (one per input role, in order), not ${result.experience.length}`,
        );
      if (result.education.length !== input.education.length)
        problems.push(
          `education must have exactly ${entries(input.education.length)} (one per input item), not ${result.education.length}`,
        );
    }
    return problems;
  },
};

// ---- The route.

const AtsScore = z.number().int().min(0).max(100);
const ResumeResult = ResumeRecord.extend({
  ats_score: AtsScore,
  provider: z.string(),
  warnings: WarningsField,
}).openapi("Resume");
const ResumeDocument = z
  .object({
    resume: z.string(),
    format: z.enum(RESUME_FORMATS),
    ats_score: AtsScore,
    provider: z.string(),
    warnings: WarningsField,
  })
  .openapi("ResumeDocument");

const resume = gatewayRoute("key", {
  method: "post",
  path: "/v1/generate/resume",
  summary: "Write a resume (Form A: free-text experience → Markdown or text; Form B: structured → resume record)",
  description:
    "Form A (experience is a string) answers `{resume, format, ats_score, provider}`: the resume laid out " +
    "by the gateway as Markdown or plain text from the same validated record Form B answers. Form B " +
    "(experience is an array; name required) answers the resume record. header.name is the name given and " +
    "(Form B) each role's company the one given; Form B's experience and education keep the input's " +
    "entries (one repair turn, then `warnings`, or 502 with `strict`). `ats_score` is computed by the " +
    "gateway, never by the model: 70 points for the share of the target role's and keywords' terms found " +
    "in the resume's text (lightly stemmed), plus 6 for each of: summary of " +
    "10+ words, 2+ bullets per role, half the bullets quantified, 3+ skills, contact details.",
  tags: ["Generate"],
  request: jsonRequest(ResumeBody),
  responses: {
    200: jsonResponse(z.union([ResumeResult, ResumeDocument]), "The resume (shape by the form sent)"),
    ...keyedErrors,
    ...providerErrors,
  },
});

const handleResume: Handler<typeof resume> = async (c, { body }) => {
  const input = resumeInput(body);
  const generated = await runTemplate(c, resumeTemplate, input, {
    provider: body.provider,
    strict: body.strict,
  });
  const ats_score = atsScore(generated.result, input.targetRole);
  if (input.form === "B") return respondGenerated(c, generated, { ats_score });
  const format: ResumeFormat = body.format;
  const document = { resume: renderResume(generated.result, format), format };
  return respondGenerated(c, { ...generated, result: document }, { ats_score });
};

export const resumeRoutes: RouteDef[] = [route(resume, handleResume)];
