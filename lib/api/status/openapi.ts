import { GATEWAY_VERSION } from "../../version.ts";

/** The version /health and the OpenAPI document report: package.json's (CHANGELOG.md says what changed). */
export const API_VERSION = GATEWAY_VERSION;

/** The OpenAPI document's info block. */
export const API_DESCRIPTION = {
  title: "Unified API Gateway",
  version: API_VERSION,
  description: "One API key for language models, research orchestration, data sources, reference data and utilities.",
};
