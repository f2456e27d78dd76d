import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "zod";

export const CATEGORIES = [
  "developmental",
  "acquired",
  "progressive",
  "fluency",
  "voice",
  "sensory",
  "structural",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** Shown with every condition: the content informs, it does not diagnose. */
export const CLINICAL_DISCLAIMER =
  "Educational reference for clinicians, students and families. It describes conditions in general terms and is not " +
  "medical advice, a diagnosis or a treatment plan: assessment and decisions belong to qualified professionals who know the person.";

/** The `## ` sections every condition document has, in order, and the record field each becomes. */
export const SECTIONS = {
  overview: "Overview",
  symptoms: "Symptoms",
  communication: "Communication profile",
  aac: "AAC strategies",
  treatments: "Treatments",
  codes: "Classification codes",
} as const;
type SectionKey = keyof typeof SECTIONS;

/** ICD-10-CM: a letter, two digits, and up to four characters after the dot (F84.0, S06.9X9A). */
export const ICD10_CM = /^[A-Z]\d{2}(\.\w{1,4})?$/;
/** ICD-11 MMS stem codes: chapter character, a letter, a digit, one more (6A02, LD40.0, 6A01.20, 8D2Z). */
export const ICD11_MMS = /^[1-9A-Z][A-Z]\d[0-9A-Z](\.[0-9A-Z]{1,2})?$/;

const FrontMatter = z.object({
  id: z.number().int().min(1),
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  name: z.string().min(1),
  category: z.enum(CATEGORIES),
  icd10: z.string().regex(ICD10_CM),
  // null where ICD-11 has no code of its own for the condition (it is coded by its cause).
  icd11: z.string().regex(ICD11_MMS).nullable(),
  aac_strategies: z.array(z.string().min(1)).min(1),
});

export type Condition = z.infer<typeof FrontMatter> & {
  /** Section text as written in the document (Markdown), keyed by record field. */
  sections: Record<SectionKey, string>;
  /** The whole document body, without the front matter. */
  markdown: string;
};

const DATA_DIR = path.join(process.cwd(), "lib", "api", "clinical", "data", "conditions");

/** One document: YAML front matter between `---` lines, then Markdown with the required sections. */
export function parseConditionDocument(text: string, file: string): Condition {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`${file}: no YAML front matter`);
  const parsed = FrontMatter.safeParse(parseYaml(match[1]!));
  if (!parsed.success)
    throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const markdown = match[2]!.trim();
  const byHeading = new Map<string, string>();
  for (const part of markdown.split(/^## /m).slice(1)) {
    const newline = part.indexOf("\n");
    const heading = (newline === -1 ? part : part.slice(0, newline)).trim();
    byHeading.set(heading, newline === -1 ? "" : part.slice(newline + 1).trim());
  }
  const sections = {} as Record<SectionKey, string>;
  for (const [key, heading] of Object.entries(SECTIONS) as [SectionKey, string][]) {
    const body = byHeading.get(heading);
    if (!body) throw new Error(`${file}: missing or empty section '## ${heading}'`);
    sections[key] = body;
  }
  return { ...parsed.data, sections, markdown };
}

/** Parses every document in a folder, in numeric id order, and checks ids and slugs are unique. */
export function loadConditionFolder(dir: string): Condition[] {
  const files = fs.readdirSync(/*turbopackIgnore: true*/ dir).filter((f) => f.endsWith(".md"));
  const conditions = files.map((f) =>
    parseConditionDocument(fs.readFileSync(/*turbopackIgnore: true*/ path.join(dir, f), "utf8"), f),
  );
  conditions.sort((a, b) => a.id - b.id);
  const seen = new Set<string>();
  for (const c of conditions) {
    for (const key of [`id ${c.id}`, `slug ${c.slug}`]) {
      if (seen.has(key)) throw new Error(`duplicate condition ${key}`);
      seen.add(key);
    }
  }
  return conditions;
}

type Catalogue = { all: Condition[]; bySlug: Map<string, Condition>; byId: Map<number, Condition> };
let catalogue: Catalogue | undefined;

// Parsed on first use and kept: the documents never change while the process runs.
function load(): Catalogue {
  if (!catalogue) {
    const all = loadConditionFolder(DATA_DIR);
    catalogue = { all, bySlug: new Map(all.map((c) => [c.slug, c])), byId: new Map(all.map((c) => [c.id, c])) };
  }
  return catalogue;
}

export function listConditions(): readonly Condition[] {
  return load().all;
}

/** A condition by slug or by numeric id ("7"); undefined when there is none. */
export function findCondition(idOrSlug: string): Condition | undefined {
  const { bySlug, byId } = load();
  const key = idOrSlug.trim().toLowerCase();
  return /^\d+$/.test(key) ? byId.get(Number(key)) : bySlug.get(key);
}
