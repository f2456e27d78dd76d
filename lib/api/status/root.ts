import type { Config } from "../../config.ts";

/** The service index at `/`: what the service is, where each family of endpoints lives, how to authenticate. */
export function rootDocument(config: Config, requestOrigin: string) {
  const base = config.publicBaseUrl ?? requestOrigin;
  const { day, minute, concurrency } = config.limits;
  return {
    name: "Unified API Gateway",
    version: "v1" as const,
    documentation: `${base}/docs`,
    endpoints: {
      data: "/v1/data",
      llm: "/v1/llm",
      orchestrate: "/v1/orchestrate",
      utils: "/v1/utils",
      capabilities: "/v1/capabilities",
      openapi: "/openapi.json",
      health: "/health",
    },
    authentication: {
      methods: [
        "X-API-Key: <API_KEY> header (recommended)",
        "Authorization: Bearer <API_KEY>",
        "api_key=<API_KEY> query parameter",
      ],
      rate_limit: `${day.toLocaleString("en-US")} requests per day per key (resets at midnight UTC), ${minute} per minute (rolling), ${concurrency} concurrent`,
    },
  };
}
