import aac from "./api/aac/index.ts";
import cache from "./api/cache/index.ts";
import capabilities from "./api/capabilities/index.ts";
import chat from "./api/chat/index.ts";
import clinical from "./api/clinical/index.ts";
import corpus from "./api/corpus/index.ts";
import create from "./api/create/index.ts";
import data from "./api/data/index.ts";
import datavis from "./api/datavis/index.ts";
import documents from "./api/documents/index.ts";
import embeddings from "./api/embeddings/index.ts";
import generate from "./api/generate/index.ts";
import generators from "./api/generators/index.ts";
import etymology from "./api/etymology/index.ts";
import key from "./api/key/index.ts";
import linguistics from "./api/linguistics/index.ts";
import llm from "./api/llm/index.ts";
import mcp from "./api/mcp/index.ts";
import messages from "./api/messages/index.ts";
import models from "./api/models/index.ts";
import orchestrate from "./api/orchestrate/index.ts";
import providerKeys from "./api/provider-keys/index.ts";
import admin from "./api/admin/index.ts";
import proxy from "./api/proxy/index.ts";
import responses from "./api/responses/index.ts";
import screenshot from "./api/screenshot/index.ts";
import social from "./api/social/index.ts";
import status from "./api/status/index.ts";
import swarm from "./api/swarm/index.ts";
import tools from "./api/tools/index.ts";
import trove from "./api/trove/index.ts";
import usage from "./api/usage/index.ts";
import utils from "./api/utils/index.ts";
import type { Area } from "./gateway/http/area.ts";
import { createHttpGateway, type HttpGateway } from "./gateway/pipeline/gateway.ts";
import type { Runtime } from "./gateway/runtime/runtime.ts";

/**
 * The composition root: every area of the API, mounted in this order. Imports run down from here
 * (app → areas → gateway, upstream, db); the same list gives the front door its paths.
 */
export const AREAS: readonly Area[] = [
  status,
  capabilities,
  key,
  usage,
  providerKeys,
  admin,
  data,
  llm,
  chat,
  messages,
  responses,
  cache,
  embeddings,
  models,
  utils,
  tools,
  mcp,
  orchestrate,
  swarm,
  documents,
  proxy,
  screenshot,
  social,
  aac,
  clinical,
  corpus,
  create,
  generate,
  generators,
  datavis,
  etymology,
  linguistics,
  trove,
];

export function createApp(rt: Runtime): HttpGateway {
  return createHttpGateway(rt, AREAS);
}

/** What a worker process needs of the areas: the work of their task kinds, without the HTTP app. */
export function setUpAreas(rt: Runtime): void {
  for (const area of AREAS) area.setup?.(rt);
}
