import type { ApiKey } from "../../db/generated/client.ts";
import { KEY_CACHE_SCOPES, type AliasCachePolicy } from "../../llm/routing/config.ts";
import type { Limits, TokenLimits } from "../runtime/limits/windows.ts";

/** The spec's areas, which a key's scopes name. */
export const SCOPE_AREAS = [
  "aac",
  "clinical",
  "corpus",
  "create",
  "data",
  "datavis",
  "documents",
  "etymology",
  "generate",
  "linguistics",
  "llm",
  "orchestrate",
  "proxy",
  "screenshot",
  "social",
  "swarm",
  "tools",
  "trove",
  "utils",
] as const;
export type ScopeArea = (typeof SCOPE_AREAS)[number];

/** What the gateway keeps in memory about a key: enough to authenticate, scope and limit a request. */
export type KeyRecord = {
  id: string;
  hash: string;
  prefix: string;
  name: string;
  userId: string | null;
  /** The team the key belongs to (its levels: the team's limits and its organisation's); absent: personal. */
  teamId?: string;
  /** "client" (issued to a person or program) or "console" (a portal session's key). */
  kind: "client" | "console";
  scopes: string[];
  /** Per-key limits; null falls back to the operator's defaults (in the key cache: filled in, withEnforcedTerms). */
  overrides: { [K in keyof Limits]: number | null };
  /** What the limiter counts against: the first key of the rotation lineage, so a rotation brings no fresh quota. */
  limitKey: string;
  /** True once the key was rotated: past its grace period it is refused as rotated, not expired. */
  replaced: boolean;
  status: "active" | "revoked";
  expiresAt: number | null;
  createdAt: number;
  /** Areas a console key is refused, saying why, until its user is approved (console-access.ts). */
  withheld?: readonly string[];
  /** The operator's model rules (lib/llm/routing/model-rules.ts); absent when the key has none. */
  models?: ModelRules;
  /** Model tokens a minute and a day (reserved at admission, settled with what was used); absent when the key has none. */
  tokenLimits?: TokenLimits;
  /** The operator's response-cache policy for the key's model calls (keys CLI --cache-max-age); absent: none. */
  cache?: AliasCachePolicy;
  /** The routing file's guardrail policy for the key's model calls (keys CLI --guardrails); absent: none. */
  guardrails?: string;
};

/** Aliases or provider/model patterns (`*` matches anything) a key may call, and may never: deny wins. */
export type ModelRules = { allow: readonly string[]; deny: readonly string[] };

export function toKeyRecord(row: ApiKey): KeyRecord {
  return {
    id: row.id,
    hash: row.hash,
    prefix: row.prefix,
    name: row.name,
    userId: row.userId,
    ...(row.teamId !== null && { teamId: row.teamId }),
    kind: row.kind === "console" ? "console" : "client",
    scopes: row.scopes,
    overrides: { day: row.dayLimit, minute: row.minuteLimit, concurrency: row.concurrencyLimit },
    limitKey: row.lineageId ?? row.id,
    replaced: row.replacedBy !== null,
    status: row.status === "revoked" ? "revoked" : "active",
    expiresAt: row.expiresAt?.getTime() ?? null,
    createdAt: row.createdAt.getTime(),
    ...((row.modelAllow.length > 0 || row.modelDeny.length > 0) && {
      models: { allow: row.modelAllow, deny: row.modelDeny },
    }),
    ...(row.cacheMaxAge !== null && {
      cache: {
        maxAgeS: row.cacheMaxAge,
        scope: KEY_CACHE_SCOPES.find((s) => s === row.cacheScope) ?? "key",
        ...(row.cacheSemantic && { semantic: { tools: false, anyTemperature: false } }),
      },
    }),
    ...(row.guardrails !== null && { guardrails: row.guardrails }),
    ...((row.tokenMinuteLimit !== null || row.tokenDayLimit !== null) && {
      tokenLimits: {
        ...(row.tokenMinuteLimit !== null && { minute: row.tokenMinuteLimit }),
        ...(row.tokenDayLimit !== null && { day: row.tokenDayLimit }),
      },
    }),
  };
}

/** What the operator configured for console keys: their areas ([] = all) and default limits. */
export type ConsolePolicy = { scopes: string[]; limits: Limits };

/** What applies to a key that sets none of its own: the service defaults (LIMIT_*) and the console policy (CONSOLE_*). */
export type KeyPolicy = { limits: Limits; console: ConsolePolicy };

/** Where an enforced term comes from: the key's own setting, the console policy, or the service default. */
export type TermSource = "key" | "console" | "default";

/** What the gateway enforces for a key: each limit and the scopes ([] = every area), with where each comes from. */
export type EnforcedTerms = {
  limits: { [K in keyof Limits]: { value: number; source: TermSource } };
  scopes: { value: string[]; source: TermSource };
};

/**
 * The one statement of what a key is held to: its own limits and scopes where set, else the console
 * policy for a console key, else the service defaults. The key cache applies it as a record enters
 * memory (withEnforcedTerms) and the portal shows it, so a page never says other than what callers meet.
 */
export function enforcedTerms(
  key: { kind: string; scopes: readonly string[]; limits: { [K in keyof Limits]: number | null } },
  policy: KeyPolicy,
): EnforcedTerms {
  const isConsole = key.kind === "console";
  const fallback = isConsole ? policy.console.limits : policy.limits;
  const source: TermSource = isConsole ? "console" : "default";
  const limit = (w: keyof Limits) => {
    const own = key.limits[w];
    return own === null ? { value: fallback[w], source } : { value: own, source: "key" as const };
  };
  return {
    limits: { day: limit("day"), minute: limit("minute"), concurrency: limit("concurrency") },
    // A client key's empty list is its own grant of every area; a console key's means "the console areas".
    scopes:
      isConsole && key.scopes.length === 0
        ? { value: [...policy.console.scopes], source: "console" }
        : { value: [...key.scopes], source: "key" },
  };
}

/**
 * A record as the gateway enforces it (enforcedTerms): its scopes and every limit filled in. Applied
 * when the record enters the key cache, so requests pay nothing for it.
 */
export function withEnforcedTerms(record: KeyRecord, policy: KeyPolicy | undefined): KeyRecord {
  if (!policy) return record;
  const { limits, scopes } = enforcedTerms({ ...record, limits: record.overrides }, policy);
  return {
    ...record,
    scopes: scopes.value,
    overrides: { day: limits.day.value, minute: limits.minute.value, concurrency: limits.concurrency.value },
  };
}

/** The limits a request is admitted under: a cached record's own (enforcedTerms filled them in), else `defaults`. */
export function effectiveLimits(key: KeyRecord, defaults: Limits): Limits {
  return {
    day: key.overrides.day ?? defaults.day,
    minute: key.overrides.minute ?? defaults.minute,
    concurrency: key.overrides.concurrency ?? defaults.concurrency,
  };
}

/** Areas every key may use whatever its scopes: a key can always read about itself. */
const ALWAYS_ALLOWED = new Set(["status", "account"]);

/**
 * Scopes that grant operator powers on top of areas (only the CLI and operator endpoint grant them):
 * `ollama:admin` may pull and delete models on the operator's own runner; `keys:admin` may manage keys over
 * /v1/admin/keys (every key's without a team, its team's with one: lib/api/admin/keys).
 */
export const OPERATOR_SCOPES = ["ollama:admin", "keys:admin"] as const;
const OPERATOR_SCOPE_SET: ReadonlySet<string> = new Set(OPERATOR_SCOPES);
export const isOperatorScope = (scope: string): boolean => OPERATOR_SCOPE_SET.has(scope);

/** An operator scope is not an area, so a key holding only operator scopes still reaches every area. */
export function keyAllowsArea(key: KeyRecord, area: string): boolean {
  return (
    key.scopes.length === 0 ||
    ALWAYS_ALLOWED.has(area) ||
    key.scopes.includes(area) ||
    key.scopes.every(isOperatorScope)
  );
}
