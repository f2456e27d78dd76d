import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { ErrorSchema, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { exploreWord } from "./explore.ts";
import { ADJ_TYPES, buildEtymologyGraph, NODE_TYPES, RELATIONS, renderGraph, VIZ_TYPES } from "./graph.ts";
import { findHeadword } from "./lookup.ts";
import { etymologyStore, type EtymologyStore } from "./store.ts";

const tags = ["Etymology"];
const SOURCE =
  "GCIDE 0.48 (GNU Collaborative International Dictionary of English; Debian dict-gcide 0.48.5+nmu2), derived from Webster's Revised Unabridged Dictionary (1913) and WordNet";
const LICENCE = "GNU General Public License, version 2 or later (the data only; shipped as a separate data file)";
const unavailable = { 502: jsonResponse(ErrorSchema, "The etymology data could not be loaded") };

const IndexSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    features: z.array(z.string()),
    endpoints: z.record(z.string(), z.string()),
    headwords: z.number().int().nullable(),
    status: z.enum(["ok", "unavailable"]),
    source: z.string(),
    licence: z.string(),
  })
  .openapi("EtymologyIndex");

/** The index still answers when the data is broken; it then says so instead of counting headwords. */
function storeOrNull(): EtymologyStore | null {
  try {
    return etymologyStore();
  } catch {
    return null;
  }
}

const index = gatewayRoute("optional", {
  method: "get",
  path: "/v1/etymology",
  summary: "What the etymology service offers",
  tags,
  // Optional-key route: a key that is sent is checked and limited, so 401/403/429 can answer here too.
  responses: {
    200: jsonResponse(IndexSchema, "Service description, headword count, data source and licence"),
    ...keyedErrors,
  },
});

const handleIndex: Handler<typeof index> = () => {
  const store = storeOrNull();
  return {
    name: "Etymology",
    description:
      "Word origins from GCIDE (Webster 1913): definitions, pronunciation, the chain of ancestor forms, cognates in sister languages, related English words, and graph data for visualising them.",
    features: [
      "definitions with part of speech",
      "pronunciation (Webster respelling)",
      "lineage: ancestor forms, oldest first, with language names and approximate periods",
      "cognates: sister-language forms and English words from the same root",
      "related words: cross-references, words citing this one, words sharing an ancestor",
      "graph data: network, mermaid or matrix; ordered temporally, linguistically or semantically",
      "lemma fallback for inflected forms (running → run)",
    ],
    endpoints: {
      "GET /v1/etymology/": "this description (key optional)",
      "GET /v1/etymology/explore/{word}":
        "a word's etymology; viz_type=network|mermaid|matrix, adj_type=temporal|linguistic|semantic",
      "GET /v1/etymology/health": "200 when the data is loaded, 502 when not (no key)",
    },
    headwords: store ? store.records.length : null,
    status: store ? ("ok" as const) : ("unavailable" as const),
    source: SOURCE,
    licence: LICENCE,
  };
};

const EtymonSchema = z
  .object({
    lang: z.string().openapi({ description: "abbreviation as GCIDE writes it, e.g. AS." }),
    language: z.string(),
    form: z.string(),
    gloss: z.string().optional(),
    translit: z.string().optional(),
    family: z.string(),
    branch: z.string(),
    era: z.number().int().nullable().openapi({ description: "approximate first year of the period (negative = BC)" }),
    period: z.string().optional(),
  })
  .openapi("Etymon");

const NodeSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    language: z.string(),
    lang: z.string(),
    type: z.enum(NODE_TYPES),
    family: z.string(),
    branch: z.string(),
    era: z.number().int().nullable(),
    period: z.string().optional(),
  })
  .openapi("EtymologyGraphNode");
const EdgeSchema = z
  .object({ source: z.string(), target: z.string(), relation: z.enum(RELATIONS) })
  .openapi("EtymologyGraphEdge");
const graphBase = { adj_type: z.enum(ADJ_TYPES) };
const GraphSchema = z
  .discriminatedUnion("viz_type", [
    z.object({ viz_type: z.literal("network"), ...graphBase, nodes: z.array(NodeSchema), edges: z.array(EdgeSchema) }),
    z.object({ viz_type: z.literal("mermaid"), ...graphBase, mermaid: z.string() }),
    z.object({
      viz_type: z.literal("matrix"),
      ...graphBase,
      labels: z.array(z.string()),
      ids: z.array(z.string()),
      matrix: z.array(z.array(z.number().int())),
    }),
  ])
  .openapi("EtymologyGraph");

const ExploreSchema = z
  .object({
    query: z.string(),
    word: z.string(),
    headword: z.string(),
    matched: z.enum(["exact", "lemma"]),
    pronunciation: z.string().nullable(),
    parts_of_speech: z.array(z.string()),
    definitions: z.array(z.object({ definition: z.string(), part_of_speech: z.string().nullable() })),
    etymology: z.string().nullable(),
    lineage_order: z.literal("oldest_first"),
    lineage: z.array(EtymonSchema),
    cognates: z.object({
      forms: z.array(EtymonSchema),
      headwords: z.array(
        z.object({ word: z.string(), relation: z.enum(["from_cognate_form", "shares_root"]), via: z.string() }),
      ),
    }),
    related: z.array(
      z.object({
        word: z.string(),
        relation: z.enum(["cites", "cited_by", "shares_ancestor"]),
        via: z.string().optional(),
      }),
    ),
    roots: z.array(z.string()),
    graph: GraphSchema,
  })
  .openapi("EtymologyExploration");

const explore = gatewayRoute("key", {
  method: "get",
  path: "/v1/etymology/explore/{word}",
  summary: "A word's definitions, pronunciation, lineage, cognates, related words and graph",
  tags,
  request: {
    params: z.object({
      word: z.string().trim().min(1).max(64).openapi({
        description: "an English word; case and surrounding spaces are ignored, inflections fall back to their lemma",
        example: "water",
      }),
    }),
    query: z.object({
      viz_type: z
        .enum(VIZ_TYPES)
        .default("network")
        .openapi({ description: "graph form: network (nodes/edges), mermaid (flowchart text), matrix (adjacency)" }),
      adj_type: z.enum(ADJ_TYPES).default("temporal").openapi({
        description:
          "node order: temporal (oldest language first), linguistic (by family/branch), semantic (by distance from the word)",
      }),
    }),
  },
  responses: {
    200: jsonResponse(ExploreSchema, "The word's etymology; lineage is ordered oldest ancestor first"),
    ...keyedErrors,
    404: jsonResponse(ErrorSchema, "The word (or its lemma) is not a headword"),
    ...unavailable,
  },
});

const handleExplore: Handler<typeof explore> = (_c, { params: { word }, query: { viz_type, adj_type } }) => {
  const store = etymologyStore();
  const match = findHeadword(word, (w) => store.byWord.has(w));
  const found = match ? exploreWord(store, match.word) : null;
  if (!match || !found) throw new GatewayError(404, `unknown word '${word}'`);
  const graph = renderGraph(buildEtymologyGraph(found, store.legend), viz_type, adj_type);
  return { query: word, ...found, matched: match.matched, lineage_order: "oldest_first" as const, graph };
};

const health = gatewayRoute("none", {
  method: "get",
  path: "/v1/etymology/health",
  summary: "Whether the etymology data is loaded",
  tags,
  responses: {
    200: jsonResponse(
      z.object({ status: z.literal("ok"), headwords: z.number().int() }).openapi("EtymologyHealth"),
      "Data loaded",
    ),
    ...unavailable,
  },
});

const handleHealth: Handler<typeof health> = () => ({
  status: "ok" as const,
  headwords: etymologyStore().records.length,
});

export const etymologyRoutes: RouteDef[] = [
  route(index, handleIndex),
  route(explore, handleExplore),
  route(health, handleHealth),
];
