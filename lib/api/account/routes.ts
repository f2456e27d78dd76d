import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { GatewayError } from "../../errors.ts";
import { effectiveLimits } from "../../gateway/keys/record.ts";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { usageSummary } from "./usage-summary.ts";

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
    remaining: z.object({
      minute: WindowSchema,
      day: WindowSchema,
      concurrency: z.object({ limit: z.number().int(), in_use: z.number().int(), remaining: z.number().int() }),
    }),
  })
  .openapi("KeyInfo");

const TotalsSchema = z.object({
  requests: z.number().int(),
  successes: z.number().int(),
  client_errors: z.number().int(),
  server_errors: z.number().int(),
  rate_limited: z.number().int(),
  avg_latency_ms: z.number(),
  bytes_in: z.number().int(),
  bytes_out: z.number().int(),
  tokens: z.number().int(),
});

const UsageSchema = z
  .object({
    key: z.object({ id: z.string(), prefix: z.string() }),
    period: z.object({ today: z.string(), month_start: z.string() }),
    today: TotalsSchema,
    month: TotalsSchema,
    by_route: z.array(TotalsSchema.extend({ route: z.string() })),
  })
  .openapi("UsageSummary");

const keyInfo = gatewayRoute("key", {
  method: "get",
  path: "/v1/key",
  summary: "The calling key: prefix, name, scopes, limits and what remains in each window (from memory)",
  tags: ["Account"],
  responses: { 200: jsonResponse(KeyInfoSchema, "The calling key"), ...keyedErrors },
});

const usage = gatewayRoute("key", {
  method: "get",
  path: "/v1/usage",
  summary: "The calling key's usage today and this month (UTC), overall and by route",
  tags: ["Account"],
  responses: { 200: jsonResponse(UsageSchema, "Usage summary"), ...keyedErrors },
});

export function registerAccountRoutes(app: OpenAPIHono<GatewayEnv>): void {
  app.openapi(keyInfo, (c) => {
    // c.get, not c.var: every c.var read copies all of the request's variables (this is the keyed no-op route).
    const key = c.get("key");
    const admission = c.get("admission");
    const runtime = c.get("runtime");
    if (!key || !admission) throw new GatewayError(401, "missing API key");
    const limits = effectiveLimits(key, runtime.config.limits);
    const window = (w: { limit: number; remaining: number; reset: number }) => ({
      limit: w.limit,
      remaining: w.remaining,
      reset: Math.ceil(w.reset / 1000),
    });
    return c.json(
      {
        id: key.id,
        prefix: key.prefix,
        name: key.name,
        status: key.status,
        scopes: key.scopes,
        expires_at: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
        limits,
        remaining: {
          minute: window(admission.minute),
          day: window(admission.day),
          concurrency: {
            limit: admission.concurrency.limit,
            in_use: admission.concurrency.inUse,
            remaining: Math.max(0, admission.concurrency.limit - admission.concurrency.inUse),
          },
        },
      },
      200,
    );
  });

  app.openapi(usage, async (c) => {
    const key = c.get("key");
    const runtime = c.get("runtime");
    if (!key) throw new GatewayError(401, "missing API key");
    const summary = await usageSummary(runtime.db, key.id, runtime.meter.pendingFor(key.id));
    return c.json({ key: { id: key.id, prefix: key.prefix }, ...summary }, 200);
  });
}
