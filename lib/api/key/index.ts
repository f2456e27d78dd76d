import { z } from "@hono/zod-openapi";
import { defineArea } from "../../gateway/http/area.ts";
import { GatewayError } from "../../errors.ts";
import { effectiveLimits } from "../../gateway/keys/record.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { route } from "../../gateway/pipeline/route.ts";
import { jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { counterId } from "../../gateway/teams/levels.ts";
import { budgetView, BudgetViewSchema } from "../../usage/budget-view.ts";

const WindowSchema = z.object({ limit: z.number().int(), remaining: z.number().int(), reset: z.number().int() });

const KeyInfoSchema = z
  .object({
    id: z.string(),
    prefix: z.string(),
    name: z.string(),
    status: z.string(),
    scopes: z.array(z.string()).openapi({ description: "Areas this key may call; empty means all" }),
    expires_at: z.string().nullable(),
    limits: z.object({ day: z.number().int(), minute: z.number().int(), concurrency: z.number().int() }),
    token_limits: z.object({ minute: z.number().int().nullable(), day: z.number().int().nullable() }).openapi({
      description:
        "Model tokens (prompt and completion) a minute and a UTC day; null: not limited. What is left shows on model calls as x-ratelimit-remaining-tokens",
    }),
    team: z
      .object({ id: z.string(), name: z.string(), organisation: z.object({ id: z.string(), name: z.string() }) })
      .nullable()
      .openapi({ description: "The team the key belongs to, with its organisation; null: its owner's personal space" }),
    levels: z
      .array(
        z.object({
          level: z.enum(["user", "team", "organisation"]),
          id: z.string(),
          name: z.string(),
          limits: z.object({
            minute: z.number().int().nullable(),
            day: z.number().int().nullable(),
            tokens_minute: z.number().int().nullable(),
            tokens_day: z.number().int().nullable(),
          }),
          budget: BudgetViewSchema.nullable().openapi({
            description:
              "The level's monthly budget across its keys (UTC month) and what this instance has counted against it; cost is estimated USD",
          }),
        }),
      )
      .openapi({
        description:
          "Limits above the key that its requests also count against (its user's over all their keys, its team's, its organisation's); a request passes only if every level passes. null: that window is not limited there",
      }),
    models: z.object({ allow: z.array(z.string()), deny: z.array(z.string()) }).openapi({
      description:
        "The operator's model rules: aliases or provider/model, `*` for any run of characters. Deny wins; an empty allow list is any model",
    }),
    remaining: z.object({
      minute: WindowSchema,
      day: WindowSchema,
      concurrency: z.object({ limit: z.number().int(), in_use: z.number().int(), remaining: z.number().int() }),
    }),
  })
  .openapi("KeyInfo");

const keyInfo = gatewayRoute("key", {
  method: "get",
  path: "/v1/key",
  summary: "The calling key: prefix, name, scopes, limits and what remains in each window (from memory)",
  tags: ["Account"],
  responses: { 200: jsonResponse(KeyInfoSchema, "The calling key"), ...keyedErrors },
});

const keyRoute = route(keyInfo, (c) => {
  const key = c.key;
  const admission = c.admission;
  if (!key || !admission) throw new GatewayError(401, "missing API key");
  const window = (w: { limit: number; remaining: number; reset: number }) => ({
    limit: w.limit,
    remaining: w.remaining,
    reset: Math.ceil(w.reset / 1000),
  });
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    status: key.status,
    scopes: key.scopes,
    expires_at: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
    limits: effectiveLimits(key, c.runtime.config.limits),
    token_limits: { minute: key.tokenLimits?.minute ?? null, day: key.tokenLimits?.day ?? null },
    team: (key.teamId && c.runtime.levels.team(key.teamId)) || null,
    levels: c.runtime.levels.chainOf(key).levels.map(({ level, id, name, limits }) => ({
      level,
      id,
      name,
      limits: {
        minute: limits.minute ?? null,
        day: limits.day ?? null,
        tokens_minute: limits.tokensMinute ?? null,
        tokens_day: limits.tokensDay ?? null,
      },
      budget: budgetView(c.runtime.budgets.levelStatus(counterId(level, id))),
    })),
    models: { allow: [...(key.models?.allow ?? [])], deny: [...(key.models?.deny ?? [])] },
    remaining: {
      minute: window(admission.minute),
      day: window(admission.day),
      concurrency: {
        limit: admission.concurrency.limit,
        in_use: admission.concurrency.inUse,
        remaining: Math.max(0, admission.concurrency.limit - admission.concurrency.inUse),
      },
    },
  };
});

/** The calling key itself; the "account" scope, which every key may call. */
export default defineArea({
  name: "key",
  scope: "account",
  paths: ["/v1/key"],
  routes: [keyRoute],
});
