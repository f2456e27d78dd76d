import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../../errors.ts";
import { gatewayRoute } from "../../../gateway/http/route.ts";
import { ErrorSchema, jsonResponse, keyedErrors } from "../../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../../gateway/pipeline/route.ts";
import { usageReport } from "../../../portal/usage/report.ts";
import { groupKeys } from "../../../portal/usage/summary.ts";
import { reach } from "../reach.ts";

const Counts = {
  requests: z.number().int(),
  ok: z.number().int(),
  client: z.number().int(),
  server: z.number().int(),
  limited: z.number().int(),
};

const UsageByLevelSchema = z
  .object({
    scope: z.object({ level: z.enum(["all", "organisation", "team"]), id: z.string().nullable() }),
    from: z.string(),
    to: z.string(),
    totals: z.object({ ...Counts, tokens: z.number().int() }).passthrough(),
    teams: z.array(z.object({ team_id: z.string().nullable(), name: z.string().nullable(), ...Counts })),
    members: z.array(z.object({ email: z.string().nullable(), ...Counts })),
    keys: z.array(
      z.object({ id: z.string(), name: z.string(), owner: z.string().nullable(), ...Counts }).passthrough(),
    ),
    models: z.array(z.object({ provider: z.string(), model: z.string() }).passthrough()),
    models_total: z.object({ requests: z.number().int(), cost_usd: z.number() }).passthrough(),
  })
  .passthrough()
  .openapi("UsageByLevel", {
    description:
      "The last 30 UTC days from the daily rollups, like the portal's dashboard, for an organisation's, a team's or every key; teams, members (null: the team's own keys) and keys each add up to the totals",
  });

const usage = gatewayRoute("key", {
  method: "get",
  path: "/v1/admin/usage",
  summary: "Usage by team, member, key and model for the keys the caller manages (keys:admin)",
  tags: ["Keys administration"],
  request: {
    query: z.object({
      team: z.string().max(100).optional().openapi({ description: "One team's keys" }),
      organisation: z
        .string()
        .max(100)
        .optional()
        .openapi({ description: "One organisation's keys (an operator's key)" }),
    }),
  },
  responses: {
    200: jsonResponse(UsageByLevelSchema, "Usage"),
    ...keyedErrors,
    403: jsonResponse(ErrorSchema, "The calling key lacks keys:admin, or its owner is no longer a team admin"),
    404: jsonResponse(ErrorSchema, "No such team or organisation among what the caller manages"),
  },
});

const handleUsage: Handler<typeof usage> = async (c, { query }) => {
  const { reach: r } = await reach(c);
  if (r.kind === "team" && (query.organisation !== undefined || (query.team !== undefined && query.team !== r.teamId)))
    throw new GatewayError(404, `no ${query.organisation ? "organisation" : "team"} among what this key manages`);
  const teamId = r.kind === "team" ? r.teamId : query.team;
  const organisationId = teamId ? undefined : query.organisation;
  const report = await usageReport(c.runtime.db, {
    ...(teamId && { teamId }),
    ...(organisationId && { organisationId }),
  });
  const teamName = (id: string | null) => (id ? (c.runtime.levels.team(id)?.name ?? null) : null);
  return {
    scope: teamId
      ? { level: "team" as const, id: teamId }
      : organisationId
        ? { level: "organisation" as const, id: organisationId }
        : { level: "all" as const, id: null },
    ...report,
    teams: groupKeys(report.keys, (k) => k.team_id).map(([team_id, counts]) => ({
      team_id,
      name: teamName(team_id),
      ...counts,
    })),
    members: groupKeys(report.keys, (k) => k.owner).map(([email, counts]) => ({ email, ...counts })),
  };
};

export const adminUsageRoutes: RouteDef[] = [route(usage, handleUsage)];
