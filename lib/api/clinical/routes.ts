import { z, type OpenAPIHono, type RouteHandler } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { blankAsAbsent, ErrorSchema, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { CATEGORIES, CLINICAL_DISCLAIMER, findCondition, listConditions, type Condition } from "./conditions.ts";
import { contentRecord, contentStats, matchConditionNames } from "./content-service.ts";
import { conditionSearchIndex, searchConditions } from "./search.ts";

const CONTENT_PATHS = ["/api/conditions", "/api/conditions/*", "/api/search", "/api/stats"] as const;

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
  // Registered without the slash: the app is non-strict, so /v1/clinical/ (SPEC) reaches it too.
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
const handleIndex: RouteHandler<typeof index, GatewayEnv> = (c) =>
  c.json(
    {
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
    },
    200,
  );

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
const handleList: RouteHandler<typeof list, GatewayEnv> = (c) =>
  c.json({ conditions: listConditions().map((x) => ({ category: x.category, id: x.slug, name: x.name })) }, 200);

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
const handleDetail: RouteHandler<typeof detail, GatewayEnv> = (c) =>
  c.json(toDetail(mustFind(c.req.valid("param").condition_id)), 200);

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
const handleSearch: RouteHandler<typeof search, GatewayEnv> = (c) => {
  const { q, limit } = c.req.valid("query");
  const results = searchConditions(conditionSearchIndex(), q, limit);
  return c.json({ query: q, count: results.length, results }, 200);
};

const contentList = gatewayRoute("none", {
  method: "get",
  path: "/api/conditions",
  summary: "Content service: every condition with its page URL",
  tags: ["Clinical content service"],
  responses: {
    200: contentAnswer({ count: z.number().int(), conditions: z.array(ContentRecordSchema) }, "All conditions"),
  },
});
const handleContentList: RouteHandler<typeof contentList, GatewayEnv> = (c) => {
  const conditions = listConditions().map(contentRecord);
  return c.json({ success: true as const, count: conditions.length, conditions }, 200);
};

const contentDetail = gatewayRoute("none", {
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
});
const handleContentDetail: RouteHandler<typeof contentDetail, GatewayEnv> = (c) => {
  const condition = mustFind(c.req.valid("param").slug);
  return c.json(
    {
      success: true as const,
      condition: {
        ...contentRecord(condition),
        id: condition.id,
        category: condition.category,
        icd10: condition.icd10,
        icd11: condition.icd11,
        markdown: condition.markdown,
      },
    },
    200,
  );
};

const contentSearch = gatewayRoute("none", {
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
});
const handleContentSearch: RouteHandler<typeof contentSearch, GatewayEnv> = (c) => {
  const { q } = c.req.valid("query");
  const results = matchConditionNames(listConditions(), q).map(contentRecord);
  return c.json({ success: true as const, query: q, count: results.length, results }, 200);
};

const contentStatsRoute = gatewayRoute("none", {
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
});
const handleContentStats: RouteHandler<typeof contentStatsRoute, GatewayEnv> = (c) =>
  c.json({ success: true as const, stats: contentStats() }, 200);

/**
 * The content service answers errors in its own envelope, `{success: false, error}`. Errors are still
 * thrown and shaped by the gateway's one error handler; this only re-wraps what it produced.
 */
const contentServiceEnvelope: MiddlewareHandler<GatewayEnv> = async function contentServiceEnvelope(c, next) {
  await next();
  if (c.error instanceof GatewayError && c.res.status >= 400) {
    c.res = c.json({ success: false, error: c.error.message }, c.error.status, c.error.headers);
  }
};

export function registerClinicalRoutes(app: OpenAPIHono<GatewayEnv>): void {
  for (const path of CONTENT_PATHS) app.use(path, contentServiceEnvelope);

  app.openapi(index, handleIndex);
  app.openapi(list, handleList);
  app.openapi(detail, handleDetail);
  app.openapi(search, handleSearch);
  app.openapi(contentList, handleContentList);
  app.openapi(contentDetail, handleContentDetail);
  app.openapi(contentSearch, handleContentSearch);
  app.openapi(contentStatsRoute, handleContentStats);
}
