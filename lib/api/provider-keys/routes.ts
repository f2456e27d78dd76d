import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { Reply } from "../../gateway/pipeline/answer.ts";
import type { Call } from "../../gateway/pipeline/call.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import {
  CREDENTIAL_LABEL,
  CREDENTIAL_LABEL_RULE,
  DEFAULT_LABEL,
  KEYED_PROVIDERS,
  ownerCredentials,
  PROVIDER_SECRET,
  PROVIDER_SECRET_RULE,
  type CredentialSummary,
} from "../../llm/routing/owner-credentials.ts";

const tags = ["Provider keys"];

const ProviderParams = z.object({
  provider: z
    .enum(KEYED_PROVIDERS as [string, ...string[]])
    .openapi({ description: "A language-model provider that takes a key" }),
});
const Label = z
  .string()
  .regex(CREDENTIAL_LABEL, CREDENTIAL_LABEL_RULE)
  .openapi({ description: `Several keys per provider are told apart by label; default "${DEFAULT_LABEL}"` });

const ProviderKeySchema = z
  .object({
    provider: z.string(),
    label: z.string(),
    last4: z.string().openapi({ description: "The key's last four characters; the key itself is never shown again" }),
    created_at: z.string(),
    updated_at: z.string(),
    last_used_at: z.string().nullable(),
  })
  .openapi("ProviderKey");

const unavailable = {
  503: jsonResponse(ErrorSchema, "The operator has not set GATEWAY_SECRET_KEYS, so provider keys cannot be stored"),
};
const ownerless = jsonResponse(
  ErrorSchema,
  "The key's scopes leave out llm, or the key belongs to no portal user (keys made with the CLI)",
);

/** A key's owner is its portal user: every key of that user sees the same provider keys. */
function ownerOf(c: Call): string {
  const key = c.key;
  if (!key) throw new GatewayError(401, "missing API key");
  if (!key.userId)
    throw new GatewayError(403, "provider keys belong to a portal user, and this API key belongs to none");
  return key.userId;
}

const shown = (k: CredentialSummary) => ({
  provider: k.provider,
  label: k.label,
  last4: k.last4,
  created_at: k.createdAt.toISOString(),
  updated_at: k.updatedAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
});

const list = gatewayRoute("key", {
  method: "get",
  path: "/v1/provider-keys",
  summary: "The provider keys the caller's user has stored (their last four characters, never the keys)",
  tags,
  responses: {
    200: jsonResponse(z.object({ provider_keys: z.array(ProviderKeySchema) }), "Stored provider keys"),
    ...keyedErrors,
    403: ownerless,
    ...unavailable,
  },
});

const handleList: Handler<typeof list> = async (c) => ({
  provider_keys: (await ownerCredentials(c.runtime).list(ownerOf(c))).map(shown),
});

const put = gatewayRoute("key", {
  method: "put",
  path: "/v1/provider-keys/{provider}",
  summary: "Store a provider key for the caller's user, sealed; it is never shown again",
  tags,
  request: {
    params: ProviderParams,
    ...jsonRequest(
      z.object({
        secret: z.string().regex(PROVIDER_SECRET, `secret: ${PROVIDER_SECRET_RULE}`),
        label: Label.optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(ProviderKeySchema, "Replaced the key stored under this provider and label"),
    201: jsonResponse(ProviderKeySchema, "Stored"),
    ...keyedErrors,
    403: ownerless,
    ...unavailable,
  },
});

const handlePut: Handler<typeof put> = async (c, { params, body }) => {
  const stored = await ownerCredentials(c.runtime).store(ownerOf(c), params.provider, body.secret, body.label);
  return Reply.json(shown(stored.credential), stored.created ? 201 : 200);
};

const remove = gatewayRoute("key", {
  method: "delete",
  path: "/v1/provider-keys/{provider}",
  summary: "Delete a provider key the caller's user stored",
  tags,
  request: { params: ProviderParams, query: z.object({ label: Label.optional() }) },
  responses: {
    204: { description: "Deleted" },
    ...keyedErrors,
    403: ownerless,
    404: jsonResponse(ErrorSchema, "The user has stored no key for this provider under this label"),
    ...unavailable,
  },
});

const handleRemove: Handler<typeof remove> = async (c, { params, query }) => {
  const deleted = await ownerCredentials(c.runtime).delete(ownerOf(c), params.provider, query.label);
  if (!deleted) throw new GatewayError(404, `no ${params.provider} key labelled "${query.label ?? DEFAULT_LABEL}"`);
  return Reply.empty(204);
};

export const providerKeyRoutes: RouteDef[] = [
  route(list, handleList),
  route(put, handlePut),
  route(remove, handleRemove),
];
