import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse } from "../../gateway/http/schemas.ts";
import { route, type RouteDef } from "../../gateway/pipeline/route.ts";
import { CACHE_MISS, cacheFor, cachedFrom, hitUse, setHitHeaders } from "../../llm/cache/answer-cache.ts";
import { hitAnswer, replayStream } from "../../llm/cache/replay.ts";
import { completeOn, streamOn } from "../../llm/call/index.ts";
import { openAIErrorResponses } from "../../llm/compat/error-responses.ts";
import { inlineImages } from "../../llm/compat/images.ts";
import { refuseUnlisted, serviceTierFeature, ServiceTierField } from "../../llm/compat/passthrough.ts";
import { chatRoute } from "../../llm/compat/routed.ts";
import { storedAnswerId } from "../../llm/compat/target.ts";
import { chatStreamAnswer, completionUsage } from "../../llm/usage-report.ts";
import { chatToResponse, inputItems, responseEventSink, responsesToChat } from "../../llm/wire/responses/index.ts";
import type { ResponseInputItem, ResponseObject, ResponsesRequest } from "../../llm/wire/types.ts";
import { resolveReferences } from "./references.ts";
import { responseStore, type StoredTurn } from "./store.ts";

const tags = ["OpenAI-compatible"];

// The fields the gateway reads are checked here; the rest is translated onto Chat Completions, or
// refused by name when no provider behind it could honour it.
const ResponsesBody = z.looseObject({
  model: z.string().min(1).max(200),
  input: z.union([z.string(), z.array(z.looseObject({})).max(1000)]),
  instructions: z.string().nullable().optional(),
  previous_response_id: z.string().min(1).max(200).nullable().optional(),
  stream: z.boolean().optional(),
  store: z.boolean().optional(),
  tools: z
    .array(z.looseObject({ type: z.string().min(1).max(64) }))
    .max(128)
    .optional(),
  max_output_tokens: z.number().int().min(1).nullable().optional(),
  service_tier: ServiceTierField,
});

const Json = z.record(z.string(), z.unknown());
const idParams = z.object({ response_id: z.string().min(1).max(200) });

const create = gatewayRoute("key", {
  method: "post",
  path: "/v1/responses",
  summary: "OpenAI-compatible Responses (model as provider/model), on every provider",
  tags,
  request: jsonRequest(ResponsesBody),
  responses: {
    200: {
      description: "A response, or its stream events (response.created … response.completed)",
      content: { "application/json": { schema: Json }, "text/event-stream": { schema: z.string() } },
    },
    ...openAIErrorResponses(404, 502, 503, 504),
  },
});

const retrieve = gatewayRoute("key", {
  method: "get",
  path: "/v1/responses/{response_id}",
  summary: "A stored response of this key's",
  tags,
  request: { params: idParams },
  responses: { 200: jsonResponse(Json, "The response as it was answered"), ...openAIErrorResponses(404) },
});

const remove = gatewayRoute("key", {
  method: "delete",
  path: "/v1/responses/{response_id}",
  summary: "Delete a stored response of this key's",
  tags,
  request: { params: idParams },
  responses: { 200: jsonResponse(Json, "Deleted"), ...openAIErrorResponses(404) },
});

const missing = (rt: Runtime, id: string) =>
  new GatewayError(
    404,
    `response '${id}' not found: responses are kept ${rt.config.responsesRetentionDays} days, for the key that made them, unless sent with store: false`,
  );

const createResponse = route(create, async (c, validated) => {
  const body = validated.body as unknown as ResponsesRequest;
  const rt = c.runtime;
  // Before anything is read or sent: a tier that costs extra passes only when the operator allows it.
  refuseUnlisted(serviceTierFeature(body.service_tier), rt.config.passthroughFeatures);
  const owner = c.key!.id;
  const store = responseStore(rt);
  let prior: ResponseInputItem[] = [];
  if (body.previous_response_id) {
    const turn = await store.get(owner, body.previous_response_id);
    if (!turn) throw missing(rt, body.previous_response_id);
    prior = turn.items;
  }
  const route = await chatRoute(c, body.model as string, storedAnswerId("resp_"), { body });
  const { plan } = route;
  const input = await resolveReferences(inputItems(body.input), (id) => store.get(owner, id));
  // The pivot names no deployment's model: each attempt sends it with its own (completeOn).
  const chat = responsesToChat({ ...body, input }, plan.candidates[0]!.modelId, prior);
  const context = { id: plan.id, model: plan.model, createdAt: plan.created, request: body };
  // What a follow-up continues from: the earlier turns, this input, and what the model answered.
  const keep = (response: ResponseObject) => {
    if (body.store === false) return;
    const turn: StoredTurn = {
      items: [...prior, ...input, ...(response.output as ResponseInputItem[])],
      response,
    };
    store.save(owner, turn);
    c.forgetAnswer = () => store.delete(owner, response.id);
  };
  // The response cache, keyed on the chat pivot (images as sent; the key takes the client's model
  // string, not the pivot's), so the same question shares one entry with /v1/chat/completions and
  // /v1/messages. A follow-up (previous_response_id, or a conversation) is never answered from it: its
  // real input is the stored conversation, not its body, and that can be deleted or expire while the
  // entry lives. A hit is stored as a response like any answer (store: true), so it can be continued.
  const continues = body.previous_response_id != null || (body as { conversation?: unknown }).conversation != null;
  const cache = continues ? undefined : cacheFor(c, body.model as string, chat, route.plan.cache);
  const hit = await cache?.read();
  if (hit) {
    setHitHeaders(c, hit);
    if (body.stream) return replayStream(hit, plan.id, responseEventSink(context, keep));
    c.report({ cache: hitUse(hit) });
    const response = chatToResponse(hitAnswer(hit, plan.id), context);
    keep(response);
    return response as never;
  }
  if (cache) c.setHeader("x-gateway-cache", "miss");
  chat.messages = await inlineImages(rt, chat.messages, c);
  if (body.stream) {
    const kept = cache?.recorder();
    const stream = await route.stream((target, stop) => {
      const sink = responseEventSink(context, keep);
      return streamOn(target, { chat, sink: kept ? kept.sink(sink, target.name) : sink }, stop);
    });
    kept?.keepWhenFinished(stream);
    return chatStreamAnswer(stream, cache && CACHE_MISS);
  }
  const r = await route.whole((target, stop) => completeOn(target, { chat }, stop));
  c.report({ ...completionUsage(r), ...(cache && { cache: CACHE_MISS }) });
  await cache?.write(cachedFrom(r.answer, r));
  const response = chatToResponse(r.answer, context);
  keep(response);
  return response as never;
});

const retrieveResponse = route(retrieve, async (c, { params: { response_id: id } }) => {
  const turn = await responseStore(c.runtime).get(c.key!.id, id);
  if (!turn) throw missing(c.runtime, id);
  return turn.response as never;
});

const deleteResponse = route(remove, async (c, { params: { response_id: id } }) => {
  if (!(await responseStore(c.runtime).delete(c.key!.id, id))) throw missing(c.runtime, id);
  return { id, object: "response", deleted: true };
});

export const responsesRoutes: RouteDef[] = [createResponse, retrieveResponse, deleteResponse];
