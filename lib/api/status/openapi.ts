export const API_VERSION = "1.0.0";

/** The OpenAPI document's info block. */
export const API_DESCRIPTION = {
  title: "Unified API Gateway",
  version: API_VERSION,
  description: "One API key for language models, research orchestration, data sources, reference data and utilities.",
};
