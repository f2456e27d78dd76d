import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { blankAsAbsent, ErrorSchema, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { CATEGORIES, CLINICAL_DISCLAIMER, findCondition, listConditions, type Condition } from "./conditions.ts";
import { contentRecord, contentServiceErrors, contentStats, matchConditionNames } from "./content-service.ts";
import { conditionSearchIndex, searchConditions } from "./search.ts";

const ConditionId = z
  .string()
  .min(1)
  .max(100)
  .openapi({ param: { name: "condition_id", in: "path" }, example: "autism-spectrum-disorder" });
const Category = z.enum(CATEGORIES);

const ConditionDetail = z
  .object({
    id: z.string().openapi({ description: "slug" }),
    numeric_id: z.number().int(),
    name: z.string(),
    category: Category,
    overview: z.string(),
    symptoms: z.string(),
    communication: z.string(),
    aac_strategies: z.array(z.string()),
    aac_strategies_text: z.string(),
    treatments: z.string(),
    icd10: z.string().openapi({ description: "ICD-10-CM code" }),
    icd11: z
      .string()
      .nullable()
      .openapi({ description: "ICD-11 MMS code; null where ICD-11 codes the condition only by its cause" }),
    codes: z.string(),
    markdown: z.string(),
    url: z.string(),
    disclaimer: z.string(),
  })
  .openapi("ClinicalCondition");

const ContentRecordSchema = z
  .object({ slug: z.string(), name: z.string(), has_html: z.boolean(), url: z.string() })
  .openapi("ClinicalContentRecord");
const ContentError = z.object({ success: z.literal(false), error: z.string() }).openapi("ClinicalContentError");
const contentErrors = (...statuses: Array<400 | 404>) =>
  Object.fromEntries(
    statuses.map((s) => [s, jsonResponse(ContentError, s === 400 ? "Invalid parameters" : "Unknown condition")]),
  );
/** The content service's own envelope for an answer, `{success: true, …}` (and contentErrors for errors). */
const contentAnswer = <T extends z.ZodRawShape>(shape: T, description: string) =>
  jsonResponse(z.object({ success: z.literal(true), ...shape }), description);

function toDetail(c: Condition) {
  return {
    id: c.slug,
    numeric_id: c.id,
    name: c.name,
    category: c.category,
    overview: c.sections.overview,
    symptoms: c.sections.symptoms,
    communication: c.sections.communication,
    aac_strategies: c.aac_strategies,
    aac_strategies_text: c.sections.aac,
    treatments: c.sections.treatments,
    icd10: c.icd10,
    icd11: c.icd11,
    codes: c.sections.codes,
    markdown: c.markdown,
    url: contentRecord(c).url,
    disclaimer: CLINICAL_DISCLAIMER,
  };
}

function mustFind(idOrSlug: string): Condition {
  const condition = findCondition(idOrSlug);
  if (!condition) throw new GatewayError(404, `unknown condition '${idOrSlug}'`);
  return condition;
}

const index = gatewayRoute("optional", {
  method: "get",
  // Declared without the slash: the route table ignores a trailing one, so /v1/clinical/ (SPEC) reaches it too.
  path: "/v1/clinical",
  summary: "What the clinical reference holds",
  tags: ["Clinical"],
  responses: {
    200: jsonResponse(
      z.object({
        name: z.string(),
        description: z.string(),
        conditions_count: z.number().int(),
        categories: z.array(Category),
        endpoints: z.record(z.string(), z.string()),
        disclaimer: z.string(),
      }),
      "Name, number of conditions and endpoints",
    ),
    ...keyedErrors,
  },
});
const handleIndex: Handler<typeof index> = () => ({
  name: "Clinical reference",
  description:
    "Communication-related conditions a speech-language or AAC clinician meets, with AAC strategies and ICD-10-CM / ICD-11 codes.",
  conditions_count: listConditions().length,
  categories: [...CATEGORIES],
  endpoints: {
    conditions: "/v1/clinical/conditions",
    condition: "/v1/clinical/conditions/{condition_id}",
    search: "/v1/clinical/search?q=",
    content_service: "/api/conditions",
  },
  disclaimer: CLINICAL_DISCLAIMER,
});

const list = gatewayRoute("key", {
  method: "get",
  path: "/v1/clinical/conditions",
  summary: "Every condition: slug, name and category",
  tags: ["Clinical"],
  responses: {
    200: jsonResponse(
      z.object({ conditions: z.array(z.object({ category: Category, id: z.string(), name: z.string() })) }),
      "The conditions, by numeric id",
    ),
    ...keyedErrors,
  },
});
const handleList: Handler<typeof list> = () => ({
  conditions: listConditions().map((x) => ({ category: x.category, id: x.slug, name: x.name })),
});

const detail = gatewayRoute("key", {
  method: "get",
  path: "/v1/clinical/conditions/{condition_id}",
  summary: "One condition by slug or numeric id",
  tags: ["Clinical"],
  request: { params: z.object({ condition_id: ConditionId }) },
  responses: {
    200: jsonResponse(ConditionDetail, "The condition with every section"),
    404: jsonResponse(ErrorSchema, "Unknown condition"),
    ...keyedErrors,
  },
});
const handleDetail: Handler<typeof detail> = (_c, { params }) => toDetail(mustFind(params.condition_id));

const search = gatewayRoute("key", {
  method: "get",
  path: "/v1/clinical/search",
  summary: "Ranked full-text search over condition names and content (BM25, names boosted)",
  tags: ["Clinical"],
  request: {
    query: z.object({
      q: z.string().trim().min(1).max(200),
      // A blank ?limit= means the default: zod alone would coerce "" to 0 and refuse it.
      limit: blankAsAbsent(z.coerce.number().int().min(1).max(51).default(10)),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        query: z.string(),
        count: z.number().int(),
        results: z.array(
          z.object({ id: z.string(), name: z.string(), category: Category, score: z.number(), snippet: z.string() }),
        ),
      }),
      "Matching conditions, best first",
    ),
    ...keyedErrors,
  },
});
const handleSearch: Handler<typeof search> = (_c, { query: { q, limit } }) => {
  const results = searchConditions(conditionSearchIndex(), q, limit);
  return { query: q, count: results.length, results };
};

const contentList = gatewayRoute(
  "none",
  {
    method: "get",
    path: "/api/conditions",
    summary: "Content service: every condition with its page URL",
    tags: ["Clinical content service"],
    responses: {
      200: contentAnswer({ count: z.number().int(), conditions: z.array(ContentRecordSchema) }, "All conditions"),
    },
  },
  { errors: contentServiceErrors },
);
const handleContentList: Handler<typeof contentList> = () => {
  const conditions = listConditions().map(contentRecord);
  return { success: true as const, count: conditions.length, conditions };
};

const contentDetail = gatewayRoute(
  "none",
  {
    method: "get",
    path: "/api/conditions/{slug}",
    summary: "Content service: one condition with its Markdown",
    tags: ["Clinical content service"],
    request: {
      params: z.object({
        slug: z
          .string()
          .min(1)
          .max(100)
          .openapi({ param: { name: "slug", in: "path" }, example: "down-syndrome" }),
      }),
    },
    responses: {
      200: contentAnswer(
        {
          condition: ContentRecordSchema.extend({
            id: z.number().int(),
            category: Category,
            icd10: z.string(),
            icd11: z.string().nullable(),
            markdown: z.string(),
          }),
        },
        "The condition",
      ),
      ...contentErrors(404),
    },
  },
  { errors: contentServiceErrors },
);
const handleContentDetail: Handler<typeof contentDetail> = (_c, { params }) => {
  const condition = mustFind(params.slug);
  return {
    success: true as const,
    condition: {
      ...contentRecord(condition),
      id: condition.id,
      category: condition.category,
      icd10: condition.icd10,
      icd11: condition.icd11,
      markdown: condition.markdown,
    },
  };
};

const contentSearch = gatewayRoute(
  "none",
  {
    method: "get",
    path: "/api/search",
    summary: "Content service: conditions whose name matches the query",
    tags: ["Clinical content service"],
    request: { query: z.object({ q: z.string().trim().min(1).max(200) }) },
    responses: {
      200: contentAnswer(
        { query: z.string(), count: z.number().int(), results: z.array(ContentRecordSchema) },
        "Conditions whose name matches",
      ),
      ...contentErrors(400),
    },
  },
  { errors: contentServiceErrors },
);
const handleContentSearch: Handler<typeof contentSearch> = (_c, { query: { q } }) => {
  const results = matchConditionNames(listConditions(), q).map(contentRecord);
  return { success: true as const, query: q, count: results.length, results };
};

const contentStatsRoute = gatewayRoute(
  "none",
  {
    method: "get",
    path: "/api/stats",
    summary: "Content service: how many conditions have a rendered page",
    tags: ["Clinical content service"],
    responses: {
      200: contentAnswer(
        {
          stats: z.object({
            total_conditions: z.number().int(),
            html_ready: z.number().int(),
            markdown_only: z.number().int(),
          }),
        },
        "Counts",
      ),
    },
  },
  { errors: contentServiceErrors },
);
const handleContentStats: Handler<typeof contentStatsRoute> = () => ({
  success: true as const,
  stats: contentStats(),
});

export const clinicalRoutes: RouteDef[] = [
  route(index, handleIndex),
  route(list, handleList),
  route(detail, handleDetail),
  route(search, handleSearch),
  route(contentList, handleContentList),
  route(contentDetail, handleContentDetail),
  route(contentSearch, handleContentSearch),
  route(contentStatsRoute, handleContentStats),
];
