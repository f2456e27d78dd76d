import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { perRuntime } from "../../gateway/runtime/per-runtime.ts";
import { blankAsAbsent, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { collocationsOf, POSITIONS } from "./collocations.ts";
import { CorpusLibrary } from "./corpus-library.ts";
import { combineProfiles, frequencyOf, perMillion } from "./frequency.ts";
import { MAX_CONTEXT, MAX_LIMIT, searchCorpus } from "./search.ts";
import { CORPUS_NAMES, SOURCES, type CorpusName } from "./sources.ts";

const tags = ["Corpus"];
const Corpus = z.enum(CORPUS_NAMES).openapi({ description: "Which corpus; unknown names are a 400" });
const Term = z.string().trim().min(1).max(200);
// An empty parameter (limit=, context=) means "not sent": coerced as it stands it would be the number 0.
// Not z.coerce: it turns null into 0 too, so the OpenAPI generator documents a min-0 parameter as nullable.
const numberFromQuery = (v: unknown) => (v === "" ? undefined : typeof v === "string" ? Number(v) : v);
const int = (min: number, max: number, def: number, description: string) =>
  z
    .preprocess(numberFromQuery, z.number().int().min(min).max(max).default(def))
    .openapi({ description: `${description}; empty means the default` });

/** One library per gateway runtime, so its index cache lives in that runtime's data directory. */
const libraryOf = perRuntime(
  (rt) =>
    new CorpusLibrary(rt.config.dataDir, (e) =>
      e.error
        ? rt.logger.warn({ corpus: e.corpus, file: e.file, err: e.error }, "corpus index built but not cached on disk")
        : rt.logger.info({ corpus: e.corpus, ms: Math.round(e.ms), file: e.file }, `corpus index ${e.action}`),
    ),
);

const ENDPOINTS = {
  search:
    'GET /v1/corpus/search?q=lov*&corpus=coca&context=5&limit=100 — concordance (KWIC); * wildcards, phrases such as "the * of"',
  collocations:
    "GET /v1/corpus/collocations?word=strong&window=4&position=all&min_freq=3&limit=20 — collocates by mutual information, with t-scores",
  frequency: "GET /v1/corpus/frequency?word=thou&corpus=all — frequency per million, by decade, register and corpus",
};

const indexRoute = gatewayRoute("optional", {
  method: "get",
  // Declared without the slash: the route table ignores a request's trailing slash, so this path answers
  // both /v1/corpus/ (the spec's spelling) and /v1/corpus.
  path: "/v1/corpus",
  summary: "The corpora and their real sizes",
  tags,
  responses: {
    200: jsonResponse(
      z.object({
        name: z.string(),
        description: z.string(),
        corpora: z.array(
          z.object({ name: Corpus, description: z.string(), tokens: z.number().int(), documents: z.number().int() }),
        ),
        endpoints: z.record(z.string(), z.string()),
      }),
      "Corpora",
    ),
    ...keyedErrors,
  },
});
const handleIndex: Handler<typeof indexRoute> = async (c) => {
  const library = libraryOf(c.runtime);
  const corpora = await Promise.all(
    CORPUS_NAMES.map(async (name) => {
      const stats = await library.stats(name);
      return { name, description: SOURCES[name].description, tokens: stats.tokens, documents: stats.documents };
    }),
  );
  // A listing is usually followed by a search of the default corpus: start opening it (a build on a fresh data directory) now.
  library.prepare("coca");
  return {
    name: "Corpus",
    description:
      "Concordance, collocations and frequency over four English corpora: modern American English (coca, a stand-in for COCA) and Old, Middle and Early Modern English.",
    corpora,
    endpoints: ENDPOINTS,
  };
};

const KwicLineSchema = z
  .object({
    left: z.string(),
    word: z.string(),
    right: z.string(),
    source: z.string(),
    document: z.string(),
    year: z.number().int(),
  })
  .openapi("CorpusConcordanceLine");

const searchRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/corpus/search",
  summary: "Concordance: every occurrence of a word, wildcard or phrase in context",
  tags,
  request: {
    query: z.object({
      q: blankAsAbsent(Term.optional()).openapi({
        description:
          "Words to find; * matches any letters (lov*, *ness) or, alone, any one word (the * of). Required unless query is given",
      }),
      query: blankAsAbsent(Term.optional()).openapi({ description: "Alias of q" }),
      corpus: blankAsAbsent(Corpus.default("coca")),
      context: int(0, MAX_CONTEXT, 5, "Words of context on each side"),
      limit: int(1, MAX_LIMIT, 100, "Lines to return (total still counts every match)"),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ corpus: Corpus, query: z.string(), total: z.number().int(), results: z.array(KwicLineSchema) }),
      "The first matches in corpus order and the count of all",
    ),
    ...keyedErrors,
  },
});
const handleSearch: Handler<typeof searchRoute> = async (c, { query: { q, query, corpus, context, limit } }) => {
  const term = q ?? query;
  if (!term) throw new GatewayError(400, "q is required (the word, wildcard or phrase to find)");
  const index = await libraryOf(c.runtime).index(corpus);
  return { corpus, query: term, ...searchCorpus(index, term, { context, limit }) };
};

const collocationsRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/corpus/collocations",
  summary: "Collocates of a word, by mutual information",
  tags,
  request: {
    query: z.object({
      word: Term,
      corpus: blankAsAbsent(Corpus.optional()).openapi({
        description: "Which corpus (default coca). Sending it makes the request Form B, whose default limit is 10",
      }),
      window: int(1, 10, 4, "Words on each side counted as near"),
      position: blankAsAbsent(z.enum(POSITIONS).default("all")).openapi({
        description: "Count words on the left, the right, or both",
      }),
      min_freq: int(1, 100_000, 3, "Least co-occurrence count a collocate needs"),
      limit: z
        .preprocess(numberFromQuery, z.number().int().min(1).max(200).optional())
        .openapi({ description: "Collocates to return: default 20 (Form A), 10 (Form B, when corpus is sent)" }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        word: z.string(),
        corpus: Corpus,
        window: z.number().int(),
        position: z.enum(POSITIONS),
        min_freq: z.number().int(),
        limit: z.number().int(),
        node_frequency: z.number().int(),
        candidates: z.number().int(),
        collocates: z.array(
          z.object({ word: z.string(), frequency: z.number().int(), mi: z.number(), t_score: z.number() }),
        ),
      }),
      "Collocates sorted by MI, highest first",
    ),
    ...keyedErrors,
  },
});
const handleCollocations: Handler<typeof collocationsRoute> = async (c, { query }) => {
  const { word, corpus: named, window, position, min_freq, limit: asked } = query;
  // The spec's only Form B parameter in this area is corpus; Form B's default limit is 10, Form A's 20.
  const corpus = named ?? "coca";
  const limit = asked ?? (named ? 10 : 20);
  const index = await libraryOf(c.runtime).index(corpus);
  return {
    word,
    corpus,
    window,
    position,
    min_freq,
    limit,
    ...collocationsOf(index, word, { window, position, minFreq: min_freq, limit }),
  };
};

const Share = { count: z.number().int(), tokens: z.number().int(), per_million: z.number() };
const frequencyRoute = gatewayRoute("key", {
  method: "get",
  path: "/v1/corpus/frequency",
  summary: "How often a word occurs, by decade, register and corpus",
  tags,
  request: {
    query: z.object({
      word: Term,
      corpus: blankAsAbsent(z.enum([...CORPUS_NAMES, "all"]).default("all")).openapi({
        description: "One corpus or all",
      }),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        word: z.string(),
        corpus: z.string(),
        total: z.number().int(),
        ...Share,
        by_decade: z.array(z.object({ decade: z.number().int(), ...Share })),
        by_register: z.array(z.object({ register: z.string(), ...Share })),
        by_corpus: z.array(z.object({ corpus: Corpus, ...Share })),
      }),
      "Frequency profile",
    ),
    ...keyedErrors,
  },
});
const handleFrequency: Handler<typeof frequencyRoute> = async (c, { query: { word, corpus } }) => {
  const library = libraryOf(c.runtime);
  const names: CorpusName[] = corpus === "all" ? [...CORPUS_NAMES] : [corpus];
  const profiles = await Promise.all(
    names.map(async (name) => ({ name, profile: frequencyOf(await library.index(name), word) })),
  );
  const combined = combineProfiles(profiles.map((p) => p.profile));
  return {
    word,
    corpus,
    total: combined.count,
    count: combined.count,
    tokens: combined.tokens,
    per_million: combined.per_million,
    by_decade: combined.by_decade,
    by_register: combined.by_register,
    by_corpus: profiles.map(({ name, profile }) => ({
      corpus: name,
      count: profile.count,
      tokens: profile.tokens,
      per_million: perMillion(profile.count, profile.tokens),
    })),
  };
};

export const corpusRoutes: RouteDef[] = [
  route(indexRoute, handleIndex),
  route(searchRoute, handleSearch),
  route(collocationsRoute, handleCollocations),
  route(frequencyRoute, handleFrequency),
];
