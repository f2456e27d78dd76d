import type { Database } from "../../db/client.ts";
import type { ApiKey } from "../../db/generated/client.ts";

export type KeySummary = {
  id: string;
  name: string;
  kind: string;
  prefix: string;
  email: string | null;
  status: string;
  scopes: string[];
  /** What the operator granted; the owner may narrow within it ([] = every area). */
  granted_scopes: string[];
  limits: { day: number | null; minute: number | null; concurrency: number | null };
  /** Model tokens a minute and a UTC day; null: not limited. */
  token_limits: { minute: number | null; day: number | null };
  /** The key's team (docs/teams.md); null: its owner's personal space. */
  team_id: string | null;
  /**
   * The operator's response-cache policy for the key's model calls (docs/cache.md): answers up to
   * `max_age` seconds old (null: only when a request asks), matched by meaning too, shared with `scope`.
   */
  cache: { max_age: number | null; semantic: boolean; scope: string };
  /** The operator's model rules: patterns the key may call, and may never ([] and [] = every model). */
  models: { allow: string[]; deny: string[] };
  /** The routing file's guardrail policy the key names (docs/guardrails.md); null: none of its own. */
  guardrails: string | null;
  /** The first key of its rotation lineage (itself when never rotated into). */
  lineage_id: string;
  /** Set once the key was rotated: its replacement's id. */
  replaced_by: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
};

/** Every key, or one user's keys. */
export async function listKeys(db: Database, userId?: string): Promise<KeySummary[]> {
  const rows = await db.prisma.apiKey.findMany({
    where: userId ? { userId } : {},
    orderBy: { createdAt: "asc" },
    include: { user: true },
  });
  return rows.map(keySummary);
}

/** A key row, with its owner, as the portal lists it. */
export function keySummary(r: ApiKey & { user: { email: string | null } | null }): KeySummary {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind,
    prefix: r.prefix,
    email: r.user?.email ?? null,
    status: r.status,
    scopes: r.scopes,
    granted_scopes: r.grantedScopes,
    limits: { day: r.dayLimit, minute: r.minuteLimit, concurrency: r.concurrencyLimit },
    token_limits: { minute: r.tokenMinuteLimit, day: r.tokenDayLimit },
    team_id: r.teamId,
    cache: { max_age: r.cacheMaxAge, semantic: r.cacheSemantic, scope: r.cacheScope },
    models: { allow: r.modelAllow, deny: r.modelDeny },
    guardrails: r.guardrails,
    lineage_id: r.lineageId ?? r.id,
    replaced_by: r.replacedBy,
    created_at: r.createdAt.toISOString(),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    expires_at: r.expiresAt?.toISOString() ?? null,
  };
}
