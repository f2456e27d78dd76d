import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { JsonText } from "../../gateway/http/json-text.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import type { UpstreamCache } from "../../upstream/cache.ts";
import {
  ARASAAC_ATTRIBUTION,
  ARASAAC_LANGUAGES,
  arasaacLocale,
  findPictograms,
  rankPictograms,
  type ArasaacLanguage,
} from "./arasaac.ts";
import { searchSymbols, searchSymbolsJson, symbolIndex, type AacSymbol } from "./search.ts";
import { buildSentence, parseSources, SYMBOL_SOURCES, type SymbolSource } from "./sentence.ts";
import { LOCAL_SOURCES } from "./symbols.ts";

const MAX_LIMIT = 20;
const Query = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .openapi({ description: "Word or phrase to find symbols for", example: "dog" });
const Limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_LIMIT)
  .default(10)
  .openapi({ description: `Results to return, 1 to ${MAX_LIMIT}` });
// "ES", "es-ES" and "pt-BR" name ARASAAC locales too; an empty value means the default.
const Language = z
  .preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : (arasaacLocale(v) ?? v)) : v),
    z.enum(ARASAAC_LANGUAGES).default("en"),
  )
  .openapi({
    description:
      "Keyword language for ARASAAC (local symbols are English); a region is ignored (es-ES → es), pt-BR → br",
  });
const SourceList = z
  .string()
  .max(100)
  .openapi({ description: "Comma list of local, arasaac (pictolib is an alias of arasaac)", example: "local,arasaac" });

const AacSymbolSchema = z
  .object({
    id: z.number().int(),
    word: z.string().openapi({ description: "The symbol's name" }),
    keyword: z.string().openapi({ description: "The keyword the query matched" }),
    keywords: z.array(z.string()),
    icon_url: z
      .string()
      .openapi({ description: "Relative path for local symbols (served by this host), absolute URL for ARASAAC" }),
    url: z.string(),
    source: z.string().openapi({ description: "mulberry, openmoji, core or arasaac" }),
    license: z.string(),
    score: z.number().min(0).max(1),
    author: z.string().optional(),
    attribution: z.string().optional(),
  })
  .openapi("AacSymbol");

const upstreamErrors = {
  502: jsonResponse(ErrorSchema, "ARASAAC failed or could not be reached"),
  503: jsonResponse(ErrorSchema, "ARASAAC is rate limiting the gateway or failing repeatedly"),
  504: jsonResponse(ErrorSchema, "ARASAAC did not answer in time"),
};

export const SearchResponse = z.object({
  query: z.string(),
  results: z.array(AacSymbolSchema),
  total: z.number().int(),
  sources: z.array(z.enum(SYMBOL_SOURCES)),
  metadata: z.object({ limit: z.number().int(), language: z.string(), attribution: z.string().optional() }),
});

const arasaacLookup = (cache: UpstreamCache, language: ArasaacLanguage) => async (word: string) =>
  rankPictograms(word, await findPictograms(cache, word, language));

/** Local and ARASAAC results in one list: by score, local first among equals (a stable sort). */
function mergeResults(local: AacSymbol[], remote: AacSymbol[], limit: number): AacSymbol[] {
  return [...local, ...remote].sort((a, b) => b.score - a.score).slice(0, limit);
}

const search = gatewayRoute("key", {
  method: "get",
  path: "/v1/aac/symbols/search",
  summary: "Search AAC symbols: local Mulberry and OpenMoji symbols, and/or ARASAAC pictograms",
  description:
    "Ranking: exact keyword 1.0, lemma or derived form 0.9, prefix 0.7–0.8 by coverage, one edit 0.6 / two edits 0.4 (only when nothing else matches), synonym 0.5; sorted by score, then Mulberry, OpenMoji, ARASAAC, then id.",
  tags: ["AAC"],
  request: { query: z.object({ q: Query, limit: Limit, sources: SourceList.default("local"), language: Language }) },
  responses: {
    200: jsonResponse(SearchResponse, "Symbols, best first"),
    ...keyedErrors,
    ...upstreamErrors,
  },
});
// Local pages are pre-serialised (see resultsJson in search.ts): JSON.stringify of a page cost more
// than the search. test/aac.test.ts parses these answers with the same zod schemas.
const handleSearch: Handler<typeof search> = async (c, { query: { q, limit, sources: list, language } }) => {
  const sources = parseSources(list, "local");
  if (sources.length === 1 && sources[0] === "local") {
    const { json, total } = searchSymbolsJson(q, { limit });
    return new JsonText<z.infer<typeof SearchResponse>>(
      `{"query":${JSON.stringify(q)},"results":${json},"total":${total},"sources":["local"],"metadata":${JSON.stringify({ limit, language })}}`,
    );
  }
  const local = sources.includes("local") ? searchSymbols(q, { limit }) : { results: [], total: 0 };
  const remote = sources.includes("arasaac")
    ? rankPictograms(q, await findPictograms(c.runtime.upstreamCache, q, language))
    : [];
  return {
    query: q,
    results: mergeResults(local.results, remote, limit),
    total: local.total + remote.length,
    sources,
    metadata: { limit, language, ...(sources.includes("arasaac") ? { attribution: ARASAAC_ATTRIBUTION } : {}) },
  };
};

const ArasaacResponse = z.object({
  query: z.string(),
  results: z.array(AacSymbolSchema),
  total: z.number().int(),
  source: z.literal("arasaac"),
  metadata: z.object({ attribution: z.string(), language: z.string(), limit: z.number().int() }),
});

const arasaacRoute = (path: string, summary: string) =>
  gatewayRoute("key", {
    method: "get",
    path,
    summary,
    tags: ["AAC"],
    request: { query: z.object({ q: Query, limit: Limit, language: Language }) },
    responses: {
      200: jsonResponse(ArasaacResponse, "ARASAAC pictograms, best first, absolute image URLs"),
      ...keyedErrors,
      ...upstreamErrors,
    },
  });
const arasaac = arasaacRoute("/v1/aac/symbols/arasaac", "Search ARASAAC pictograms (CC BY-NC-SA 4.0)");
const pictolib = arasaacRoute(
  "/v1/aac/symbols/pictolib",
  "Search ARASAAC pictograms (the spec's pictolib name for /v1/aac/symbols/arasaac)",
);
/** One search for both names: pictolib is the spec's name for the ARASAAC search. */
const searchArasaac: Handler<typeof arasaac> = async (c, { query: { q, limit, language } }) => {
  const ranked = rankPictograms(q, await findPictograms(c.runtime.upstreamCache, q, language));
  return {
    query: q,
    results: ranked.slice(0, limit),
    total: ranked.length,
    source: "arasaac" as const,
    metadata: { attribution: ARASAAC_ATTRIBUTION, language, limit },
  };
};

export const LocalResponse = z.object({
  query: z.string(),
  results: z.array(AacSymbolSchema),
  total: z.number().int(),
  source: z.literal("local"),
  metadata: z.object({ limit: z.number().int(), set: z.string(), symbols_indexed: z.number().int() }),
});

const local = gatewayRoute("key", {
  method: "get",
  path: "/v1/aac/symbols/local",
  summary: "Search the local symbol set only (Mulberry, OpenMoji and core-word SVGs served by this host)",
  tags: ["AAC"],
  request: {
    query: z.object({
      q: Query,
      limit: Limit,
      set: z
        .enum(["all", ...LOCAL_SOURCES])
        .default("all")
        .openapi({ description: "Only Mulberry, only OpenMoji or only the core-word symbols" }),
    }),
  },
  responses: {
    200: jsonResponse(LocalResponse, "Local symbols, best first"),
    ...keyedErrors,
  },
});
const handleLocal: Handler<typeof local> = (_c, { query: { q, limit, set } }) => {
  const { json, total } = searchSymbolsJson(q, { limit, ...(set === "all" ? {} : { sets: [set] }) });
  const metadata = JSON.stringify({ limit, set, symbols_indexed: symbolIndex().symbols.length });
  return new JsonText<z.infer<typeof LocalResponse>>(
    `{"query":${JSON.stringify(q)},"results":${json},"total":${total},"source":"local","metadata":${metadata}}`,
  );
};

const SentenceBody = z
  .object({
    text: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .optional()
      .openapi({ description: "Form A: the text to turn into symbols" }),
    symbol_set: z
      .enum(["arasaac", "pictolib", "local"])
      .default("arasaac")
      .openapi({ description: "Form A: where symbols come from (pictolib = arasaac)" }),
    sentence: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .optional()
      .openapi({ description: "Form B: the sentence to turn into symbols" }),
    sources: z
      .union([SourceList, z.array(z.string().max(20)).max(3)])
      .optional()
      .openapi({ description: "Form B: local (default), arasaac/pictolib, or both" }),
    language: Language,
  })
  .openapi("AacSentenceRequest", { description: "Form A carries text, Form B carries sentence" });

const SentenceWordSchema = z.object({ word: z.string(), matched: z.boolean(), symbols: z.array(AacSymbolSchema) });
const sentence = gatewayRoute("key", {
  method: "post",
  path: "/v1/aac/sentence",
  summary: "Turn a sentence into AAC symbols, word by word, joining known phrases such as 'thank you'",
  tags: ["AAC"],
  request: jsonRequest(SentenceBody),
  responses: {
    200: jsonResponse(
      z.union([
        z
          .object({ symbols: z.array(z.object({ id: z.number().int(), url: z.string(), word: z.string() })) })
          .openapi("AacSentenceFormA"),
        z
          .object({
            sentence: z.string(),
            sources: z.array(z.enum(SYMBOL_SOURCES)),
            language: z.string(),
            words: z.array(SentenceWordSchema),
            statistics: z.object({
              total_words: z.number().int(),
              matched: z.number().int(),
              unmatched: z.number().int(),
              coverage: z.number(),
            }),
          })
          .openapi("AacSentenceResult"),
      ]),
      "Form A: the best symbol per matched word; Form B: every word with its symbols and coverage",
    ),
    ...keyedErrors,
    ...upstreamErrors,
  },
});
const handleSentence: Handler<typeof sentence> = async (c, { body }) => {
  const lookups = { index: symbolIndex(), arasaac: arasaacLookup(c.runtime.upstreamCache, body.language) };
  if (body.text !== undefined && body.sentence !== undefined)
    throw new GatewayError(400, "send either text (Form A) or sentence (Form B), not both");
  if (body.text !== undefined) {
    const set: SymbolSource = body.symbol_set === "local" ? "local" : "arasaac";
    const result = await buildSentence(body.text, [set], body.language, lookups);
    const symbols = result.words.flatMap((w) =>
      w.symbols[0] ? [{ id: w.symbols[0].id, url: w.symbols[0].url, word: w.word }] : [],
    );
    return { symbols };
  }
  if (body.sentence === undefined) throw new GatewayError(400, "send text (Form A) or sentence (Form B)");
  return buildSentence(body.sentence, parseSources(body.sources, "local"), body.language, lookups);
};

export const aacRoutes: RouteDef[] = [
  route(search, handleSearch),
  route(arasaac, searchArasaac),
  route(pictolib, searchArasaac),
  route(local, handleLocal),
  route(sentence, handleSentence),
];
