import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { blankAsAbsent, ErrorSchema, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { glottolog, linguistics, phoible, wals } from "./dataset.ts";
import { listLanguages, MACROAREAS, normaliseLabel, STATUS_FILTERS, summariseLanguage } from "./glottolog.ts";
import { languageProfile, resolveLanguage } from "./language-profile.ts";
import { coverage, ENDPOINTS, SOURCES } from "./overview.ts";
import { resolvePaging } from "./paging.ts";
import {
  filterSegments,
  inventoriesOf,
  languageSegments,
  MANNERS,
  PLACES,
  SEGMENT_TYPES,
  segmentRecord,
} from "./phoible.ts";
import { SEARCH_TYPES, searchFeatures, searchLanguages, searchPhonemes, type SearchType } from "./search.ts";
import {
  datapointRecord,
  FEATURE_CATEGORIES,
  filterParameters,
  findFeature,
  languageDatapoints,
  parameterRecord,
  walsLanguagesOf,
} from "./wals.ts";

const tags = ["Linguistics"];
const MAX_LANGUAGES_PAGE = 1000;
const MAX_PHONEMES = 1000;
const MAX_SEARCH = 100;

/** An enum that also accepts other spellings of its labels: "north_america", "Nearly-Extinct", "Vowel". */
function label<const T extends readonly [string, ...string[]]>(values: T) {
  const canonical = new Map(values.map((v) => [normaliseLabel(v), v]));
  return z.preprocess((v) => (typeof v === "string" ? (canonical.get(normaliseLabel(v)) ?? v) : v), z.enum(values));
}
const count = (max: number) => z.coerce.number().int().min(1).max(max);
const offset = z.coerce.number().int().min(0).max(1_000_000);
const languageCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .openapi({ description: "ISO 639-3 code (e.g. eng) or glottocode (e.g. stan1293)" });
const notFound = { 404: jsonResponse(ErrorSchema, "Unknown language, feature or inventory") };

// ---- response schemas

const Source = z.object({
  name: z.string(),
  version: z.string(),
  provides: z.string(),
  license: z.string(),
  license_url: z.string(),
  url: z.string(),
  citation: z.string(),
});
const Overview = z.object({
  name: z.string(),
  description: z.string(),
  coverage: z.object({
    languages: z
      .number()
      .int()
      .openapi({ description: "Glottolog languoids of level language (with or without an ISO code)" }),
    languages_with_iso639_3: z.number().int(),
    phonemes: z.number().int().openapi({ description: "PHOIBLE phoneme records: one per phoneme per inventory" }),
    phoneme_inventories: z.number().int(),
    segments: z.number().int(),
    wals_parameters: z.number().int(),
    wals_languages: z.number().int(),
    wals_datapoints: z.number().int(),
  }),
  endpoints: z.array(z.object({ method: z.string(), path: z.string(), description: z.string() })),
  sources: z.array(Source),
});
const LanguageSummary = z
  .object({
    iso: z.string().nullable(),
    glottocode: z.string(),
    name: z.string(),
    family: z.string().nullable(),
    region: z.string().nullable(),
    status: z.string().nullable(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
  })
  .openapi("LinguisticsLanguage");
const LanguageList = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  page: z.number().int().optional().openapi({ description: "Form B only" }),
  per_page: z.number().int().optional().openapi({ description: "Form B only" }),
  languages: z.array(LanguageSummary),
});
const FeatureValue = z.object({
  code: z.string(),
  number: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
});
const Datapoint = z
  .object({
    parameter_id: z.string(),
    name: z.string(),
    category: z.string(),
    area: z.string(),
    value: FeatureValue,
    wals_code: z.string(),
  })
  .openapi("WalsDatapoint");
const Parameter = z
  .object({
    id: z.string(),
    name: z.string(),
    chapter: z.number().int(),
    chapter_title: z.string(),
    area: z.string(),
    category: z.enum(FEATURE_CATEGORIES),
    authors: z.string(),
    url: z.string(),
    languages: z.number().int(),
    values: z.array(FeatureValue.extend({ count: z.number().int(), share: z.number() })),
  })
  .openapi("WalsFeature");
const Inventory = z.object({
  inventory_id: z.number().int(),
  source: z.string(),
  source_refs: z.array(z.string()),
  url: z.string().nullable(),
  language_name: z.string(),
  counts: z.object({
    phonemes: z.number().int(),
    consonants: z.number().int(),
    vowels: z.number().int(),
    tones: z.number().int(),
  }),
  consonants: z.array(z.string()),
  vowels: z.array(z.string()),
  tones: z.array(z.string()),
  marginal: z.array(z.string()),
});
const LanguageDetail = LanguageSummary.omit({ region: true, status: true })
  .extend({
    in_glottolog: z.boolean(),
    family_glottocode: z.string().nullable(),
    is_isolate: z.boolean().nullable(),
    classification: z.array(z.string()),
    category: z.string().nullable(),
    region: z.string().nullable(),
    countries: z.array(z.string()),
    status: z.string().nullable(),
    status_source: z.string().nullable(),
    glottocode: z.string().nullable(),
    wals_languages: z.array(
      z.object({
        wals_code: z.string(),
        name: z.string(),
        family: z.string().nullable(),
        genus: z.string().nullable(),
      }),
    ),
    wals_features: z.array(Datapoint),
    phoneme_inventory: Inventory.nullable(),
    phoneme_inventories: z.array(
      z.object({
        inventory_id: z.number().int(),
        source: z.string(),
        language_name: z.string(),
        count_phonemes: z.number().int(),
      }),
    ),
  })
  .openapi("LinguisticsLanguageDetail");
const Phoneme = z
  .object({
    segment: z.string(),
    type: z.enum(SEGMENT_TYPES),
    manner: z.string().nullable(),
    place: z.string().nullable(),
    voiced: z.boolean().nullable(),
    airstream: z.string().nullable(),
    height: z.string().nullable(),
    backness: z.string().nullable(),
    rounded: z.boolean().nullable(),
    description: z.string(),
    inventories: z.number().int().openapi({ description: "PHOIBLE inventories (all languages) containing it" }),
    languages: z.number().int().openapi({ description: "Distinct languages (glottocodes) with it in an inventory" }),
    frequency: z.number().openapi({ description: "Share of all inventories containing it" }),
    language_inventories: z
      .number()
      .int()
      .optional()
      .openapi({ description: "With language: how many of that language's inventories list it" }),
    marginal: z
      .boolean()
      .optional()
      .openapi({ description: "With language: marginal in every inventory of that language that lists it" }),
  })
  .openapi("Phoneme");
const LanguageRefSchema = z.object({ iso: z.string().nullable(), glottocode: z.string().nullable(), name: z.string() });
const PhonemeList = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  language: LanguageRefSchema.extend({
    inventories: z.array(z.object({ inventory_id: z.number().int(), source: z.string() })),
  }).optional(),
  phonemes: z.array(Phoneme),
});
const FeatureList = z.union([
  z.object({ total: z.number().int(), features: z.array(Parameter) }),
  z.object({
    language: LanguageRefSchema.extend({ wals_codes: z.array(z.string()) }),
    total: z.number().int(),
    features: z.array(Datapoint),
  }),
]);
const Match = z.object({ match: z.enum(["exact", "prefix", "substring"]) });
const SearchResults = z.object({
  query: z.string(),
  type: z.enum([...SEARCH_TYPES, "all"]),
  limit: z.number().int(),
  totals: z.object({
    languages: z.number().int().optional(),
    phonemes: z.number().int().optional(),
    features: z.number().int().optional(),
  }),
  results: z
    .object({
      languages: z.array(LanguageSummary.extend(Match.shape)).optional(),
      phonemes: z.array(Phoneme.omit({ language_inventories: true, marginal: true }).extend(Match.shape)).optional(),
      features: z.array(
        z
          .object({
            id: z.string(),
            name: z.string(),
            chapter: z.number().int(),
            area: z.string(),
            category: z.string(),
            url: z.string(),
          })
          .extend(Match.shape),
      ),
    })
    .partial(),
});

// ---- routes

const index = gatewayRoute("optional", {
  method: "get",
  // The route table ignores a trailing slash, so this path also serves /v1/linguistics/.
  path: "/v1/linguistics",
  summary: "What the linguistics database covers, its endpoints and its sources",
  tags,
  // Optional-key route: a key that is sent is checked and limited, so 401/403/429 can answer here too.
  responses: { 200: jsonResponse(Overview, "Overview"), ...keyedErrors },
});
const handleIndex: Handler<typeof index> = async () => {
  const data = await linguistics();
  return {
    name: "Linguistics",
    description:
      "Languages (Glottolog), typological features (WALS) and phoneme inventories (PHOIBLE), served from shipped data.",
    coverage: coverage(data),
    endpoints: ENDPOINTS,
    sources: SOURCES,
  };
};

const languages = gatewayRoute("key", {
  method: "get",
  path: "/v1/linguistics/languages",
  summary: "Languages (Glottolog), filtered and paged",
  description:
    "Form A pages with limit (default 50) and offset (default 0); Form B, recognised by page or per_page, with page (default 1) and per_page (default 100). Sorted by name.",
  tags,
  request: {
    query: z.object({
      family: blankAsAbsent(z.string().trim().min(1).max(100).optional()).openapi({
        description: "Family or subgroup name (case and diacritics ignored) or family glottocode",
      }),
      region: blankAsAbsent(label(MACROAREAS).optional()).openapi({ description: "Glottolog macroarea" }),
      status: blankAsAbsent(label(STATUS_FILTERS).optional()).openapi({
        description:
          "Endangerment status (Glottolog AES level), or endangered for threatened, shifting, moribund or nearly extinct",
      }),
      limit: blankAsAbsent(count(MAX_LANGUAGES_PAGE).optional()),
      offset: blankAsAbsent(offset.optional()),
      page: blankAsAbsent(count(1_000_000).optional()),
      per_page: blankAsAbsent(count(MAX_LANGUAGES_PAGE).optional()),
    }),
  },
  responses: { 200: jsonResponse(LanguageList, "A page of languages"), ...keyedErrors },
});
const handleLanguages: Handler<typeof languages> = async (_c, { query }) => {
  const { family, region, status, ...pagingInput } = query;
  const paging = resolvePaging(pagingInput);
  const page = listLanguages(await glottolog(), { family, region, status }, paging);
  const pageFields = paging.form === "B" ? { page: paging.page, per_page: paging.per_page } : {};
  return { total: page.total, limit: paging.limit, offset: paging.offset, ...pageFields, languages: page.languages };
};

const language = gatewayRoute("key", {
  method: "get",
  path: "/v1/linguistics/languages/{code}",
  summary: "One language with its WALS features and PHOIBLE phoneme inventory",
  tags,
  request: {
    params: z.object({ code: languageCode }),
    query: z.object({
      inventory: blankAsAbsent(z.coerce.number().int().min(1).optional()).openapi({
        description: "PHOIBLE inventory id to show in full instead of the default",
      }),
    }),
  },
  responses: { 200: jsonResponse(LanguageDetail, "The language"), ...keyedErrors, ...notFound },
});
const handleLanguage: Handler<typeof language> = async (_c, { params, query }) => {
  const data = await linguistics();
  const ref = resolveLanguage(data, params.code);
  return languageProfile(data, ref, { inventory: query.inventory });
};

const phonemes = gatewayRoute("key", {
  method: "get",
  path: "/v1/linguistics/phonemes",
  summary: "Phonemes (PHOIBLE): across all inventories, or one language's",
  tags,
  request: {
    query: z.object({
      language: blankAsAbsent(languageCode.optional()),
      type: blankAsAbsent(label(SEGMENT_TYPES).optional()),
      manner: blankAsAbsent(label(MANNERS).optional()),
      place: blankAsAbsent(label(PLACES).optional()),
      limit: blankAsAbsent(count(MAX_PHONEMES).default(100)),
      offset: blankAsAbsent(offset.default(0)),
    }),
  },
  responses: { 200: jsonResponse(PhonemeList, "Phonemes, most widespread first"), ...keyedErrors, ...notFound },
});
const handlePhonemes: Handler<typeof phonemes> = async (_c, { query }) => {
  const { language: code, type, manner, place, limit, offset: skip } = query;
  const [g, p] = await Promise.all([glottolog(), phoible()]);
  const filters = { type, manner, place };
  const inventoryCount = p.inventories.length;
  if (code === undefined) {
    const matches = filterSegments(p, filters);
    return {
      total: matches.length,
      limit,
      offset: skip,
      phonemes: matches.slice(skip, skip + limit).map((s) => segmentRecord(s, inventoryCount)),
    };
  }
  const ref = resolveLanguage({ glottolog: g, phoible: p }, code);
  const positions = inventoriesOf(p, ref);
  const matches = languageSegments(p, positions, filters);
  return {
    total: matches.length,
    limit,
    offset: skip,
    language: {
      iso: ref.iso639_3,
      glottocode: ref.glottocode,
      name: ref.name,
      inventories: positions.map((i) => ({
        inventory_id: p.inventories[i]!.inventory_id,
        source: p.inventories[i]!.source,
      })),
    },
    phonemes: matches.slice(skip, skip + limit).map((m) => ({
      ...segmentRecord(m.segment, inventoryCount),
      language_inventories: m.inventories,
      marginal: m.marginal,
    })),
  };
};

const features = gatewayRoute("key", {
  method: "get",
  path: "/v1/linguistics/features",
  summary: "WALS features with value distributions, or one language's values",
  tags,
  request: {
    query: z.object({
      language: blankAsAbsent(languageCode.optional()),
      feature: blankAsAbsent(z.string().trim().min(1).max(8).optional()).openapi({
        description: "WALS feature id, e.g. 1A",
      }),
      category: blankAsAbsent(label(FEATURE_CATEGORIES).optional()).openapi({
        description: "WALS areas grouped: see docs/notes/linguistics.md",
      }),
    }),
  },
  responses: { 200: jsonResponse(FeatureList, "Features, or the language's values"), ...keyedErrors, ...notFound },
});
const handleFeatures: Handler<typeof features> = async (_c, { query }) => {
  const { language: code, feature, category } = query;
  const [g, w] = await Promise.all([glottolog(), wals()]);
  const filters = { feature: feature === undefined ? undefined : findFeature(w, feature), category };
  if (code === undefined) {
    const found = filterParameters(w, filters);
    return { total: found.length, features: found.map(parameterRecord) };
  }
  const ref = resolveLanguage({ glottolog: g, wals: w }, code);
  const walsLanguages = walsLanguagesOf(w, ref);
  const values = languageDatapoints(w, walsLanguages, filters);
  return {
    language: {
      iso: ref.iso639_3,
      glottocode: ref.glottocode,
      name: ref.name,
      wals_codes: walsLanguages.map((l) => l.wals_code),
    },
    total: values.length,
    features: values.map(datapointRecord),
  };
};

const search = gatewayRoute("key", {
  method: "get",
  path: "/v1/linguistics/search",
  summary: "Search languages, phonemes and WALS features",
  description: "Ranked exact, then prefix, then substring; case and diacritics are ignored for names.",
  tags,
  request: {
    query: z.object({
      q: z.string().trim().min(1).max(200),
      type: blankAsAbsent(label([...SEARCH_TYPES, "all"] as const).default("all")),
      limit: blankAsAbsent(count(MAX_SEARCH).default(20)).openapi({ description: "Per type" }),
    }),
  },
  responses: { 200: jsonResponse(SearchResults, "Results grouped by type"), ...keyedErrors },
});
const handleSearch: Handler<typeof search> = async (_c, { query: { q, type, limit } }) => {
  const wanted = (t: SearchType) => type === "all" || type === t;
  const body: z.infer<typeof SearchResults> = { query: q, type, limit, totals: {}, results: {} };
  if (wanted("languages")) {
    const found = searchLanguages(await glottolog(), q, limit);
    body.totals.languages = found.total;
    body.results.languages = found.items.map(({ item, match }) => ({ ...summariseLanguage(item), match }));
  }
  if (wanted("phonemes")) {
    const p = await phoible();
    const found = searchPhonemes(p, q, limit);
    body.totals.phonemes = found.total;
    body.results.phonemes = found.items.map(({ item, match }) => ({
      ...segmentRecord(item, p.inventories.length),
      match,
    }));
  }
  if (wanted("features")) {
    const found = searchFeatures(await wals(), q, limit);
    body.totals.features = found.total;
    body.results.features = found.items.map(({ item, match }) => ({
      id: item.id,
      name: item.name,
      chapter: item.chapter,
      area: item.area,
      category: item.category,
      url: item.url,
      match,
    }));
  }
  return body;
};

export const linguisticsRoutes: RouteDef[] = [
  route(index, handleIndex),
  route(languages, handleLanguages),
  route(language, handleLanguage),
  route(phonemes, handlePhonemes),
  route(features, handleFeatures),
  route(search, handleSearch),
];
