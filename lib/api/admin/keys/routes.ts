import { z } from "@hono/zod-openapi";
import type { ApiKey } from "../../../db/generated/client.ts";
import { GatewayError } from "../../../errors.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { ErrorSchema, jsonRequest, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { createKey, revokeKey, updateKeyTerms } from "../../../gateway/keys/key-changes.ts";
import { keySummary } from "../../../gateway/keys/key-list.ts";
import { KeyRuleError, storable } from "../../../gateway/keys/key-rules.ts";
import { rotateKey } from "../../../gateway/keys/key-rotation.ts";
import { OPERATOR_SCOPES, SCOPE_AREAS, toKeyRecord, type KeyRecord } from "../../../gateway/keys/record.ts";
import { Reply } from "../../../gateway/pipeline/answer.ts";
import type { Call } from "../../../gateway/pipeline/call.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { TeamChangeError } from "../../../gateway/teams/team-changes.ts";
import { publishKeyChange } from "../../../portal/keys/publish-change.ts";
import { reach } from "../reach.ts";
import { beyondRights, inheritedRights, rightsOf, type Reach, type Rights } from "./rights.ts";

const tags = ["Keys administration"];

const limit = z.number().int().min(1).max(100_000_000);
const Scopes = z
  .array(z.enum([...SCOPE_AREAS, ...OPERATOR_SCOPES]))
  .max(50)
  .openapi({ description: "Areas (and operator scopes such as keys:admin); [] = every area" });
const Limits = z
  .object({
    minute: limit.nullable().optional(),
    day: limit.nullable().optional(),
    concurrency: limit.nullable().optional(),
    tokens_minute: limit.nullable().optional(),
    tokens_day: limit.nullable().optional(),
  })
  .openapi({
    description:
      "Requests a minute and a UTC day, concurrent requests, model tokens a minute and a day; null: the default (requests) or none (tokens)",
  });
const Expiry = z.coerce.date().nullable().optional().openapi({ description: "ISO date-time; null: never" });

const KeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    email: z.string().nullable(),
    team_id: z.string().nullable(),
    status: z.string(),
    scopes: z.array(z.string()),
    limits: z.object({ day: z.number().nullable(), minute: z.number().nullable(), concurrency: z.number().nullable() }),
    token_limits: z.object({ minute: z.number().nullable(), day: z.number().nullable() }),
    models: z.object({ allow: z.array(z.string()), deny: z.array(z.string()) }),
    cache: z.object({ max_age: z.number().nullable(), semantic: z.boolean(), scope: z.string() }).openapi({
      description: "The operator's response-cache policy for the key's model calls (docs/cache.md)",
    }),
    lineage_id: z.string(),
    replaced_by: z.string().nullable(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    expires_at: z.string().nullable(),
  })
  .openapi("AdminKey");
const CreatedSchema = KeySchema.extend({
  key: z.string().openapi({ description: "The new key's secret: shown here once, never again" }),
}).openapi("AdminCreatedKey");

const IdParams = z.object({ id: z.string().min(1).max(100) });
const notFound = { 404: jsonResponse(ErrorSchema, "No key with this id that the caller manages") };
const refused = {
  403: jsonResponse(
    ErrorSchema,
    "The calling key lacks keys:admin, its owner is no longer an owner or admin of its team, or what was asked would give a key more rights than the caller's own",
  ),
  409: jsonResponse(ErrorSchema, "A rule of keys refused it (a taken name, a key already rotated, a non-member)"),
};

/** A key as the API shows it: never its secret or hash, and only the fields its contract (AdminKey) has. */
function shown(row: ApiKey & { user: { email: string | null } | null }) {
  const { kind: _kind, granted_scopes: _granted, guardrails: _guardrails, ...summary } = keySummary(row);
  return summary;
}

/** A key the caller manages, or the 404 (a key of another team is as unknown as one that does not exist). */
async function managed(c: Call, r: Reach, id: string) {
  const row = await c.runtime.db.prisma.apiKey.findUnique({ where: { id }, include: { user: true } });
  if (!row || row.kind !== "client" || (r.kind === "team" && row.teamId !== r.teamId))
    throw new GatewayError(404, `no key ${id} among the keys this key manages`);
  return row;
}

function rightsOfRow(row: ApiKey): Rights {
  const record = toKeyRecord(row);
  return {
    scopes: record.scopes,
    limits: record.overrides,
    tokens: record.tokenLimits ?? {},
    expiresAt: record.expiresAt,
    models: record.models ?? { allow: [], deny: [] },
  };
}

/** Refuses what would give a key more than the caller's rights, naming the first term beyond them. */
function assertWithin(caller: KeyRecord, asked: Rights, c: Call): void {
  const defaults = c.runtime.config.limits;
  const beyond = beyondRights(rightsOf(caller, defaults), asked, defaults);
  if (beyond) throw new GatewayError(403, `a key cannot give more rights than its own: this would give ${beyond}`);
}

/** Key rules and team rules as the API's answers: 409 (a conflict) or 404. */
async function ruled<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof KeyRuleError) throw new GatewayError(409, err.message);
    if (err instanceof TeamChangeError) throw new GatewayError(err.status, err.message);
    throw err;
  }
}

const actorOf = (key: KeyRecord) => `key:${key.id}`;

const list = gatewayRoute("key", {
  method: "get",
  path: "/v1/admin/keys",
  summary: "The keys the caller manages: its team's, or every key for an operator's key (keys:admin)",
  tags,
  request: {
    query: z.object({
      team: z.string().max(100).optional().openapi({ description: "Only this team's keys (an operator's key)" }),
      status: z.enum(["active", "revoked"]).optional(),
    }),
  },
  responses: { 200: jsonResponse(z.object({ keys: z.array(KeySchema) }), "Keys"), ...keyedErrors, ...refused },
});

const handleList: Handler<typeof list> = async (c, { query }) => {
  const { reach: r } = await reach(c);
  const teamId = r.kind === "team" ? r.teamId : query.team;
  const rows = await c.runtime.db.prisma.apiKey.findMany({
    where: { kind: "client", ...(teamId && { teamId }), ...(query.status && { status: query.status }) },
    orderBy: { createdAt: "asc" },
    include: { user: true },
    take: 1000,
  });
  return { keys: rows.map(shown) };
};

const get = gatewayRoute("key", {
  method: "get",
  path: "/v1/admin/keys/{id}",
  summary: "One key the caller manages",
  tags,
  request: { params: IdParams },
  responses: { 200: jsonResponse(KeySchema, "The key"), ...keyedErrors, ...refused, ...notFound },
});

const handleGet: Handler<typeof get> = async (c, { params }) =>
  shown(await managed(c, (await reach(c)).reach, params.id));

const create = gatewayRoute("key", {
  method: "post",
  path: "/v1/admin/keys",
  summary: "Create a key with no more rights than the caller's; its secret is shown once",
  tags,
  request: {
    ...jsonRequest(
      z.object({
        name: storable(z.string().trim().min(1).max(100)),
        email: z
          .string()
          .email()
          .max(320)
          .optional()
          .openapi({ description: "The member whose personal key it is; absent: the team's own key" }),
        team: z.string().max(100).optional().openapi({
          description: "The key's team (an operator's key); a team's admin key always makes keys of its team",
        }),
        scopes: Scopes.optional(),
        limits: Limits.optional(),
        expires_at: Expiry,
      }),
    ),
  },
  responses: { 201: jsonResponse(CreatedSchema, "Created"), ...keyedErrors, ...refused, ...notFound },
});

const handleCreate: Handler<typeof create> = async (c, { body }) => {
  const { key: caller, reach: r } = await reach(c);
  if (r.kind === "team" && body.team !== undefined && body.team !== r.teamId)
    throw new GatewayError(404, `no team ${body.team} among the teams this key manages`);
  const defaults = c.runtime.config.limits;
  const own = rightsOf(caller, defaults);
  const asked = inheritedRights(
    own,
    {
      ...(body.scopes && { scopes: body.scopes }),
      limits: {
        day: body.limits?.day,
        minute: body.limits?.minute,
        concurrency: body.limits?.concurrency,
      } as Rights["limits"],
      tokens: { minute: body.limits?.tokens_minute ?? undefined, day: body.limits?.tokens_day ?? undefined },
      ...(body.expires_at !== undefined && { expiresAt: body.expires_at?.getTime() ?? null }),
    },
    defaults,
  );
  assertWithin(caller, asked, c);
  const created = await ruled(() =>
    createKey(
      c.runtime.db,
      {
        name: body.name,
        email: body.email,
        team: r.kind === "team" ? r.teamId : body.team,
        scopes: [...new Set(asked.scopes)].sort() as never,
        day: asked.limits.day ?? undefined,
        minute: asked.limits.minute ?? undefined,
        concurrency: asked.limits.concurrency ?? undefined,
        tokensMinute: asked.tokens.minute,
        tokensDay: asked.tokens.day,
        expiresAt: asked.expiresAt === null ? undefined : new Date(asked.expiresAt),
        modelAllow: [...asked.models.allow],
        modelDeny: [...asked.models.deny],
        // A key under a guardrail policy makes keys under it: never one whose calls escape it.
        ...(caller.guardrails !== undefined && { guardrails: caller.guardrails }),
      },
      actorOf(caller),
      c.runtime.config,
    ),
  );
  await publishKeyChange(c.runtime, created.record);
  const row = await managed(c, r, created.id);
  return Reply.json({ ...shown(row), key: created.key }, 201);
};

const update = gatewayRoute("key", {
  method: "patch",
  path: "/v1/admin/keys/{id}",
  summary: "Change a key's name, scopes, limits or expiry, to no more rights than the caller's",
  tags,
  request: {
    params: IdParams,
    ...jsonRequest(
      z.object({
        name: storable(z.string().trim().min(1).max(100)).optional(),
        scopes: Scopes.optional(),
        limits: Limits.optional(),
        expires_at: Expiry,
      }),
    ),
  },
  responses: { 200: jsonResponse(KeySchema, "Changed"), ...keyedErrors, ...refused, ...notFound },
});

const handleUpdate: Handler<typeof update> = async (c, { params, body }) => {
  const { key: caller, reach: r } = await reach(c);
  const row = await managed(c, r, params.id);
  const current = rightsOfRow(row);
  const l = body.limits ?? {};
  const after: Rights = {
    ...current,
    ...(body.scopes && { scopes: body.scopes }),
    limits: {
      day: l.day !== undefined ? l.day : current.limits.day,
      minute: l.minute !== undefined ? l.minute : current.limits.minute,
      concurrency: l.concurrency !== undefined ? l.concurrency : current.limits.concurrency,
    },
    tokens: {
      minute: l.tokens_minute !== undefined ? (l.tokens_minute ?? undefined) : current.tokens.minute,
      day: l.tokens_day !== undefined ? (l.tokens_day ?? undefined) : current.tokens.day,
    },
    expiresAt: body.expires_at !== undefined ? (body.expires_at?.getTime() ?? null) : current.expiresAt,
  };
  assertWithin(caller, after, c);
  const record = await ruled(() =>
    updateKeyTerms(
      c.runtime.db,
      row.id,
      {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.scopes && { scopes: [...new Set(body.scopes)].sort() }),
        limits: { day: l.day, minute: l.minute, concurrency: l.concurrency },
        tokens: { minute: l.tokens_minute, day: l.tokens_day },
        ...(body.expires_at !== undefined && { expiresAt: body.expires_at }),
      },
      actorOf(caller),
    ),
  );
  if (record) await publishKeyChange(c.runtime, record);
  return shown(await managed(c, r, row.id));
};

const rotate = gatewayRoute("key", {
  method: "post",
  path: "/v1/admin/keys/{id}/rotate",
  summary: "Issue a key's replacement (same terms and counters); the old key works for grace_hours more",
  tags,
  request: {
    params: IdParams,
    ...jsonRequest(z.object({ grace_hours: z.number().min(0).max(720).optional() })),
  },
  responses: { 201: jsonResponse(CreatedSchema, "The replacement"), ...keyedErrors, ...refused, ...notFound },
});

const handleRotate: Handler<typeof rotate> = async (c, { params, body }) => {
  const { key: caller, reach: r } = await reach(c);
  const row = await managed(c, r, params.id);
  // The new secret carries the key's rights: only a caller with at least those may hold it.
  assertWithin(caller, rightsOfRow(row), c);
  const rotated = await ruled(() =>
    rotateKey(
      c.runtime.db,
      row.id,
      { graceHours: body.grace_hours ?? 24 },
      actorOf(caller),
      undefined,
      c.runtime.config,
    ),
  );
  if (!rotated) throw new GatewayError(404, `no key ${params.id} among the keys this key manages`);
  await publishKeyChange(c.runtime, rotated.old, rotated.record, ...rotated.ended);
  return Reply.json({ ...shown(await managed(c, r, rotated.id)), key: rotated.key }, 201);
};

const revoke = gatewayRoute("key", {
  method: "delete",
  path: "/v1/admin/keys/{id}",
  summary: "Revoke a key the caller manages, at once on every instance",
  tags,
  request: { params: IdParams },
  responses: { 200: jsonResponse(KeySchema, "Revoked"), ...keyedErrors, ...refused, ...notFound },
});

const handleRevoke: Handler<typeof revoke> = async (c, { params }) => {
  const { key: caller, reach: r } = await reach(c);
  const row = await managed(c, r, params.id);
  const record = await revokeKey(c.runtime.db, row.id, actorOf(caller));
  if (record) await publishKeyChange(c.runtime, record);
  return shown(await managed(c, r, row.id));
};

export const adminKeyRoutes: RouteDef[] = [
  route(list, handleList),
  route(create, handleCreate),
  route(get, handleGet),
  route(update, handleUpdate),
  route(rotate, handleRotate),
  route(revoke, handleRevoke),
];
