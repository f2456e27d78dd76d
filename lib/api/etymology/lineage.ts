import type { LanguageLegend } from "./languages.ts";

/** One form as the data file gives it: `{lang: "AS.", form: "wæter", gloss?, translit?}`. */
export type EtymonItem = { lang: string; form: string; gloss?: string; translit?: string };

/** One headword record of data/etymology.json.gz (see data/README.md and the shared SOURCE.md). */
export type EtymologyRecord = {
  word: string;
  headword: string;
  pronunciation: string | null;
  pos: string[];
  definitions: string[];
  etymology: string | null;
  lineage: EtymonItem[];
  cognates: EtymonItem[];
};

export type ParsedEtymology = {
  /** The "from" chain, oldest ancestor first, ending with the form nearest the headword. */
  lineage: EtymonItem[];
  /** Forms in sister languages ("akin to …"), English mentions excluded. */
  cognates: EtymonItem[];
  /** Webster's root-table numbers (the "√137" marks). */
  roots: string[];
  /** Lower-case English words the etymology points at: `{Dropsy}` cross-references and "E. lief" mentions. */
  cites: string[];
};

// "Sw. & Dan. fader", "OHG. rasta": a gloss that is really one or more further forms.
const LANG = String.raw`[A-Z][A-Za-z]*\.(?: [A-Z][A-Za-z]*\.)?`;
const TAGGED_FORMS = new RegExp(String.raw`^(${LANG}(?: & ${LANG})*) (\S+)(?: (.+))?$`);
const CONNECTIVES = new Set(["or", "and", "&"]);
const ENGLISH = new Set(["E.", "Eng."]);

/**
 * The data file's parser sometimes leaves the next item(s) in a gloss ("Icel. faðir" with gloss
 * "Sw. & Dan. fader"). When every tag in the gloss is a language of the legend, split it into
 * items of their own; "It. or" + "Sp. calma" becomes It. calma and Sp. calma.
 */
export function repairItems(items: EtymonItem[], legend: LanguageLegend): EtymonItem[] {
  const out: EtymonItem[] = [];
  for (const item of items) {
    const match = item.gloss ? TAGGED_FORMS.exec(item.gloss) : null;
    const langs = match ? match[1]!.split(" & ") : [];
    if (!match || !langs.every((l) => l in legend)) {
      out.push(item);
      continue;
    }
    const form = match[2]!.replace(/[(),;]+$/, "");
    const gloss = match[3]?.replace(/[(,;]+$/, "").trim();
    const base: EtymonItem = { lang: item.lang, form: CONNECTIVES.has(item.form) ? form : item.form };
    if (item.translit) base.translit = item.translit;
    out.push(base);
    for (const lang of langs) out.push(gloss ? { lang, form, gloss } : { lang, form });
  }
  return out;
}

/** A form GCIDE could not represent at all ("?", "? ?") says nothing and is dropped. */
function isLegible(item: EtymonItem): boolean {
  return /[^?\s]/.test(item.form) && !CONNECTIVES.has(item.form);
}

/** √75, 247 → ["75", "247"]. */
export function parseRoots(etymology: string | null): string[] {
  if (!etymology) return [];
  const roots: string[] = [];
  for (const m of etymology.matchAll(/√\s*(\d+(?:\s*,\s*\d+)*)/g)) {
    for (const n of m[1]!.split(",")) roots.push(n.trim());
  }
  return [...new Set(roots)];
}

/** `{Dropsy}`, `{Ante-}` → ["dropsy", "ante-"]: the words an etymology sends the reader to. */
export function parseCrossReferences(etymology: string | null): string[] {
  if (!etymology) return [];
  const words = [...etymology.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!.trim().toLowerCase());
  return [...new Set(words.filter((w) => w.length > 0))];
}

/**
 * Structures one record: lineage turned oldest-first (GCIDE writes it newest-first: "OE. auncien,
 * F. ancien, LL. antianus, fr. L. ante"), glosses that hide further forms split out, illegible forms
 * dropped, English mentions moved from cognates to `cites`.
 */
export function parseEtymology(record: EtymologyRecord, legend: LanguageLegend): ParsedEtymology {
  const lineage = repairItems(record.lineage, legend).filter(isLegible).reverse();
  const akin = repairItems(record.cognates, legend).filter(isLegible);
  const english = akin.filter((i) => ENGLISH.has(i.lang)).map((i) => i.form.toLowerCase());
  const cognates = akin.filter((i) => !ENGLISH.has(i.lang));
  const cites = [...new Set([...parseCrossReferences(record.etymology), ...english])].filter((w) => w !== record.word);
  return { lineage, cognates, roots: parseRoots(record.etymology), cites };
}
