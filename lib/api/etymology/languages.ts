/** GCIDE language abbreviation ("AS.") → language name, as shipped in data/language_legend.json. */
export type LanguageLegend = Record<string, string>;

export type LanguageInfo = {
  /** The abbreviation as GCIDE writes it, e.g. "AS.". */
  lang: string;
  /** The legend's name, or the abbreviation itself when the legend lacks it. */
  name: string;
  family: string;
  branch: string;
  /** Approximate first year of the written period Webster cites (negative = BC); null when unknown. */
  era: number | null;
  /** "c. 450–1150", "c. 1500 BC–present"; absent when unknown. */
  period?: string;
};

type Profile = { family: string; branch: string; start: number; end: number | null };

const IE = "Indo-European";
const AA = "Afroasiatic";
const p = (family: string, branch: string, start: number, end: number | null): Profile => ({
  family,
  branch,
  start,
  end,
});

/*
 * One profile per language name in the legend. Dates are rough attestation windows, enough to put
 * Sanskrit before Latin before Old French before English; they are not scholarship. Webster's "OE."
 * is Middle English (c. 1150–1500) and "AS." is Old English, and the windows follow Webster's use.
 */
const PROFILES: Record<string, Profile> = {
  "Anglo-Saxon (Old English)": p(IE, "Germanic (West)", 450, 1150),
  "Old English (Middle English in Webster 1913 usage)": p(IE, "Germanic (West)", 1150, 1500),
  "Middle English": p(IE, "Germanic (West)", 1150, 1500),
  English: p(IE, "Germanic (West)", 1500, null),
  "Provincial English": p(IE, "Germanic (West)", 1600, null),
  Scottish: p(IE, "Germanic (West)", 1450, null),
  Saxon: p(IE, "Germanic (West)", 500, 1100),
  "Old Saxon": p(IE, "Germanic (West)", 800, 1150),
  "Old High German": p(IE, "Germanic (West)", 750, 1050),
  "Middle High German": p(IE, "Germanic (West)", 1050, 1350),
  German: p(IE, "Germanic (West)", 1500, null),
  "Low German": p(IE, "Germanic (West)", 1200, null),
  "Old Dutch": p(IE, "Germanic (West)", 900, 1150),
  "Middle Dutch": p(IE, "Germanic (West)", 1150, 1500),
  Dutch: p(IE, "Germanic (West)", 1500, null),
  Flemish: p(IE, "Germanic (West)", 1500, null),
  "Old Frisian": p(IE, "Germanic (West)", 1200, 1550),
  Frisian: p(IE, "Germanic (West)", 1550, null),
  "Teutonic (Germanic)": p(IE, "Germanic", -500, 200),
  Gothic: p(IE, "Germanic (East)", 350, 600),
  "Old Norse": p(IE, "Germanic (North)", 800, 1350),
  "Icelandic (Old Norse)": p(IE, "Germanic (North)", 800, 1350),
  Danish: p(IE, "Germanic (North)", 1500, null),
  Swedish: p(IE, "Germanic (North)", 1500, null),
  Norwegian: p(IE, "Germanic (North)", 1500, null),
  "Old Latin": p(IE, "Italic", -600, -75),
  Latin: p(IE, "Italic", -75, 200),
  "Late Latin": p(IE, "Italic", 200, 600),
  "Medieval Latin": p(IE, "Italic", 600, 1500),
  "New Latin": p(IE, "Italic", 1500, null),
  Romance: p(IE, "Italic (Romance)", 600, 900),
  "Old French": p(IE, "Italic (Romance)", 900, 1400),
  "Norman French": p(IE, "Italic (Romance)", 1066, 1400),
  "Late French": p(IE, "Italic (Romance)", 1400, 1600),
  French: p(IE, "Italic (Romance)", 1600, null),
  "Old Provençal": p(IE, "Italic (Romance)", 1000, 1500),
  Provençal: p(IE, "Italic (Romance)", 1100, null),
  Italian: p(IE, "Italic (Romance)", 1250, null),
  Spanish: p(IE, "Italic (Romance)", 1200, null),
  Portuguese: p(IE, "Italic (Romance)", 1200, null),
  Catalan: p(IE, "Italic (Romance)", 1200, null),
  Walloon: p(IE, "Italic (Romance)", 1600, null),
  Greek: p(IE, "Hellenic", -800, 300),
  "Late Greek": p(IE, "Hellenic", 300, 1450),
  "Modern Greek": p(IE, "Hellenic", 1450, null),
  Celtic: p(IE, "Celtic", -500, 500),
  "Old Irish": p(IE, "Celtic (Goidelic)", 600, 900),
  Irish: p(IE, "Celtic (Goidelic)", 1200, null),
  "Scottish Gaelic": p(IE, "Celtic (Goidelic)", 1200, null),
  Manx: p(IE, "Celtic (Goidelic)", 1600, null),
  Welsh: p(IE, "Celtic (Brythonic)", 800, null),
  Cornish: p(IE, "Celtic (Brythonic)", 1200, null),
  Breton: p(IE, "Celtic (Brythonic)", 1100, null),
  "Old Prussian": p(IE, "Balto-Slavic (Baltic)", 1350, 1700),
  Lithuanian: p(IE, "Balto-Slavic (Baltic)", 1550, null),
  Latvian: p(IE, "Balto-Slavic (Baltic)", 1550, null),
  "Old Church Slavonic": p(IE, "Balto-Slavic (Slavic)", 860, 1100),
  Slavic: p(IE, "Balto-Slavic (Slavic)", 900, null),
  Russian: p(IE, "Balto-Slavic (Slavic)", 1500, null),
  Polish: p(IE, "Balto-Slavic (Slavic)", 1400, null),
  "Czech (Bohemian)": p(IE, "Balto-Slavic (Slavic)", 1300, null),
  Albanian: p(IE, "Albanian", 1450, null),
  Armenian: p(IE, "Armenian", 400, null),
  Sanskrit: p(IE, "Indo-Iranian (Indo-Aryan)", -1500, 1000),
  Pali: p(IE, "Indo-Iranian (Indo-Aryan)", -300, 1000),
  Prakrit: p(IE, "Indo-Iranian (Indo-Aryan)", -300, 1000),
  Hindi: p(IE, "Indo-Iranian (Indo-Aryan)", 1200, null),
  Bengali: p(IE, "Indo-Iranian (Indo-Aryan)", 1000, null),
  Marathi: p(IE, "Indo-Iranian (Indo-Aryan)", 1200, null),
  "Avestan (Zend)": p(IE, "Indo-Iranian (Iranian)", -1000, 400),
  Persian: p(IE, "Indo-Iranian (Iranian)", 900, null),
  Egyptian: p(AA, "Egyptian", -3000, 300),
  Coptic: p(AA, "Egyptian", 200, 1700),
  Assyrian: p(AA, "Semitic", -2000, 100),
  Phoenician: p(AA, "Semitic", -1050, 200),
  Hebrew: p(AA, "Semitic", -1000, null),
  "Chaldee (Aramaic)": p(AA, "Semitic", -800, null),
  Syriac: p(AA, "Semitic", 100, null),
  Ethiopic: p(AA, "Semitic", 350, null),
  Arabic: p(AA, "Semitic", 500, null),
  Chinese: p("Sino-Tibetan", "Sinitic", -1200, null),
  Japanese: p("Japonic", "Japanese", 700, null),
  Tamil: p("Dravidian", "South Dravidian", -300, null),
  Kannada: p("Dravidian", "South Dravidian", 450, null),
  Telugu: p("Dravidian", "South-Central Dravidian", 600, null),
  Turkish: p("Turkic", "Oghuz", 1300, null),
  Hungarian: p("Uralic", "Ugric", 1200, null),
  Finnish: p("Uralic", "Finnic", 1540, null),
  Sami: p("Uralic", "Sami", 1600, null),
  Basque: p("Language isolate", "Basque", 1500, null),
  Malay: p("Austronesian", "Malayic", 1300, null),
  Javanese: p("Austronesian", "Javanese", 900, null),
  Hawaiian: p("Austronesian", "Polynesian", 1800, null),
  "Nahuatl (Mexican)": p("Uto-Aztecan", "Nahuan", 1500, null),
  "Quechua (Peruvian)": p("Quechuan", "Quechua", 1500, null),
  "Tupi (Brazilian)": p("Tupian", "Tupi-Guarani", 1550, null),
  "American Indian": p("Indigenous American", "unspecified", 1600, null),
  African: p("African", "unspecified", 1600, null),
};

/** Families in the order the linguistic grouping lists them: English's own family first. */
export const FAMILY_ORDER = [
  IE,
  AA,
  "Uralic",
  "Turkic",
  "Dravidian",
  "Sino-Tibetan",
  "Japonic",
  "Austronesian",
  "Uto-Aztecan",
  "Quechuan",
  "Tupian",
  "Indigenous American",
  "African",
  "Language isolate",
  "Unknown",
];

/** The abbreviation the headword itself is given: modern English. */
export const ENGLISH = "E.";

function year(n: number): string {
  return n < 0 ? `${-n} BC` : String(n);
}

/** Expands a GCIDE abbreviation to its legend name plus family, branch and approximate period. */
export function describeLanguage(lang: string, legend: LanguageLegend): LanguageInfo {
  const name = legend[lang] ?? legend[`${lang}.`] ?? lang;
  const profile = PROFILES[name];
  if (!profile) return { lang, name, family: "Unknown", branch: "Unknown", era: null };
  const end = profile.end === null ? "present" : year(profile.end);
  return {
    lang,
    name,
    family: profile.family,
    branch: profile.branch,
    era: profile.start,
    period: `c. ${year(profile.start)}–${end}`,
  };
}

/** Legend names the profile table does not cover (a test keeps this empty for the shipped legend). */
export function unprofiledLanguages(legend: LanguageLegend): string[] {
  return [...new Set(Object.values(legend))].filter((name) => !PROFILES[name]);
}
