/**
 * The resume's `ats_score` (0–100), computed here by a fixed rule and never taken from the model, so
 * that the same resume always scores the same and a model cannot flatter its own output.
 *
 * - **Keyword coverage, 70 points.** The target terms are the words of the target role (the request's
 *   `target_role`, else Form B's `title`, else the resume's own title) and of the resume's `keywords`,
 *   lowercased, split on anything but letters, digits, `+` and `#` (so "C++" and "C#" survive), stop
 *   words and one-letter words dropped, lightly stemmed (plural and verb endings and a final "e" off:
 *   "engineering", "engineers" → "engineer"; "managed", "manages" → "manag") and deduplicated. Coverage is the share of those terms found among the stems of the resume's text:
 *   header title, summary, experience titles, companies and bullets, education and skills — not the
 *   `keywords` list itself, which would always match. No terms at all means no coverage.
 * - **Structure, 30 points**, 6 for each check passed: a professional summary of at least 10 words;
 *   every experience entry with at least 2 bullets; at least half of all bullets quantified (holding a
 *   digit); at least 3 skills; contact details in the header.
 *
 * The score is `round(70 × coverage + 6 × checks passed)`.
 */

/** The parts of a resume the rule reads. */
export type ScoredResume = {
  header: { title: string; contact: string };
  professional_summary: string;
  experience: Array<{ title: string; company: string; bullets: string[] }>;
  education: Array<{ degree: string; institution: string; honors: string }>;
  skills: { technical: string[]; soft: string[] };
  keywords: string[];
};

export type AtsBreakdown = { score: number; terms: string[]; matched: string[]; checks: Record<string, boolean> };

const COVERAGE_POINTS = 70;
const CHECK_POINTS = 6;

const STOP_WORDS = new Set(
  "and or the of in on at to for with by from as an a is are be into via per our your their my its".split(" "),
);

/** A light, deterministic suffix stripper: enough for plurals and verb forms, not a full Porter stemmer. */
export function stem(word: string): string {
  let w = word.replace(/'s$/, "");
  if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  // "manage", "managed" and "managing" meet at "manag".
  return w.length > 3 && w.endsWith("e") ? w.slice(0, -1) : w;
}

/** The text's terms: lowercased words (keeping + and #), stop words and single letters out, stemmed. */
export function terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}+#]+/u)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .map(stem);
}

/** The score and how it came about (the terms sought, those found, each structure check). */
export function atsBreakdown(resume: ScoredResume, targetRole?: string): AtsBreakdown {
  const sought = [...new Set(terms([targetRole || resume.header.title, ...resume.keywords].join(" ")))];
  const body = new Set(
    terms(
      [
        resume.header.title,
        resume.professional_summary,
        ...resume.experience.flatMap((e) => [e.title, e.company, ...e.bullets]),
        ...resume.education.flatMap((e) => [e.degree, e.institution, e.honors]),
        ...resume.skills.technical,
        ...resume.skills.soft,
      ].join("\n"),
    ),
  );
  const matched = sought.filter((t) => body.has(t));
  const bullets = resume.experience.flatMap((e) => e.bullets);
  const checks = {
    summary: resume.professional_summary.split(/\s+/).filter(Boolean).length >= 10,
    bullets_per_role: resume.experience.length > 0 && resume.experience.every((e) => e.bullets.length >= 2),
    quantified: bullets.length > 0 && bullets.filter((b) => /\d/.test(b)).length * 2 >= bullets.length,
    skills: resume.skills.technical.length + resume.skills.soft.length >= 3,
    contact: resume.header.contact.trim().length > 0,
  };
  const coverage = sought.length ? matched.length / sought.length : 0;
  const passed = Object.values(checks).filter(Boolean).length;
  return { score: Math.round(COVERAGE_POINTS * coverage + CHECK_POINTS * passed), terms: sought, matched, checks };
}

/** The resume's ATS score, 0–100, by the rule above. */
export const atsScore = (resume: ScoredResume, targetRole?: string): number => atsBreakdown(resume, targetRole).score;
