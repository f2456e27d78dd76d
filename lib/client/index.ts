import createClient, { type Client, type ClientPathsWithMethod, type MethodResponse } from "openapi-fetch";
import type { components, paths } from "./schema.d.ts";

/**
 * A typed client for the gateway's API: paths, parameters, bodies and answers come from the OpenAPI
 * document the server serves at /openapi.json (lib/client/schema.d.ts, `npm run openapi:types`), so a
 * call to a path that does not exist, or with a body the route refuses, fails to compile.
 *
 *   const gateway = createGatewayClient({ baseUrl: "https://gateway.example.com", apiKey: process.env.API_KEY });
 *   const { data, error } = await gateway.GET("/v1/key");
 *
 * Each call resolves to `{ data }` on a 2xx answer and `{ error }` (the gateway's error body) otherwise,
 * with `response` either way; it rejects only when the request could not be made (network, abort).
 */

export type { components, paths };

/** The document's named schemas: `Schemas["KeyInfo"]`, `Schemas["CompletionResponse"]`. */
export type Schemas = components["schemas"];

/** Answers are read as JSON unless a call says otherwise (`parseAs: "stream"`, `"blob"`, `"text"`). */
export type GatewayClient = Client<paths, "application/json">;

type Method = "get" | "put" | "post" | "delete" | "patch";

/** The 2xx body of a call: `Answer<"get", "/v1/llm/models">`. */
export type Answer<M extends Method, P extends ClientPathsWithMethod<GatewayClient, M>> = MethodResponse<
  GatewayClient,
  M,
  P
>;

export type GatewayClientOptions = {
  /**
   * The gateway's origin, such as `https://gateway.example.com` (paths start with /v1); in a browser,
   * "" calls the page's own origin.
   */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; without one, only keyless routes (and a portal session) answer. */
  apiKey?: string;
  /** Defaults to the global fetch. It is given one `Request`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every call (a call's own headers win). */
  headers?: Record<string, string>;
  /** A browser's cookie policy; the default is the platform's ("same-origin"). */
  credentials?: RequestCredentials;
};

export function createGatewayClient({
  baseUrl,
  apiKey,
  fetch,
  headers,
  credentials,
}: GatewayClientOptions): GatewayClient {
  return createClient<paths, "application/json">({
    baseUrl,
    ...(fetch ? { fetch } : {}),
    ...(credentials ? { credentials } : {}),
    headers: { ...headers, ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
  });
}
