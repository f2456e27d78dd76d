/**
 * Form A's answer is a document, not a record: the model fills the same validated resume record as
 * Form B and it is laid out here, so the layout is the gateway's (stable, testable) and the rules that
 * checked the record hold for the text too.
 */

export type RenderedResume = {
  header: { name: string; title: string; contact: string };
  professional_summary: string;
  experience: Array<{ title: string; company: string; dates: string; bullets: string[] }>;
  education: Array<{ degree: string; institution: string; year: string; honors: string }>;
  skills: { technical: string[]; soft: string[] };
};

export const RESUME_FORMATS = ["markdown", "text"] as const;
export type ResumeFormat = (typeof RESUME_FORMATS)[number];

/** The non-empty parts, joined. */
const joined = (parts: Array<string | undefined>, sep: string) => parts.filter((p) => p?.trim()).join(sep);

const roleLine = (e: RenderedResume["experience"][number]) => joined([e.title, e.company], ", ");
const degreeLine = (e: RenderedResume["education"][number]) =>
  joined([joined([e.degree, e.institution], ", ") + (e.year ? ` (${e.year})` : ""), e.honors], " — ");

/** The resume as Markdown: `#` name, `##` sections, one `###` per role with its bullets. */
export function resumeMarkdown(r: RenderedResume): string {
  const out = [`# ${r.header.name}`];
  const sub = joined([r.header.title && `**${r.header.title}**`, r.header.contact], " · ");
  if (sub) out.push(sub);
  if (r.professional_summary) out.push("## Summary", r.professional_summary);
  if (r.experience.length) {
    out.push("## Experience");
    for (const e of r.experience)
      out.push(
        joined([`### ${roleLine(e)}`, e.dates && `*${e.dates}*`], "\n"),
        e.bullets.map((b) => `- ${b}`).join("\n"),
      );
  }
  if (r.education.length) out.push("## Education", r.education.map((e) => `- ${degreeLine(e)}`).join("\n"));
  const skills = skillLines(r, (label) => `**${label}:**`);
  if (skills.length) out.push("## Skills", skills.join("\n"));
  return out.join("\n\n") + "\n";
}

/** The resume as plain text: upper-case section names, "- " bullets, no markup. */
export function resumeText(r: RenderedResume): string {
  const out = [joined([r.header.name, joined([r.header.title, r.header.contact], " | ")], "\n")];
  if (r.professional_summary) out.push(`SUMMARY\n${r.professional_summary}`);
  if (r.experience.length)
    out.push(
      "EXPERIENCE\n" +
        r.experience
          .map((e) => joined([roleLine(e) + (e.dates ? ` (${e.dates})` : ""), ...e.bullets.map((b) => `- ${b}`)], "\n"))
          .join("\n\n"),
    );
  if (r.education.length) out.push("EDUCATION\n" + r.education.map(degreeLine).join("\n"));
  const skills = skillLines(r, (label) => `${label}:`);
  if (skills.length) out.push("SKILLS\n" + skills.join("\n"));
  return out.join("\n\n") + "\n";
}

function skillLines(r: RenderedResume, label: (name: string) => string): string[] {
  const lines: string[] = [];
  if (r.skills.technical.length) lines.push(`${label("Technical")} ${r.skills.technical.join(", ")}`);
  if (r.skills.soft.length) lines.push(`${label("Soft")} ${r.skills.soft.join(", ")}`);
  return lines;
}

export const renderResume = (r: RenderedResume, format: ResumeFormat): string =>
  format === "markdown" ? resumeMarkdown(r) : resumeText(r);
