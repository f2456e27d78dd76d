import type { ApiKey } from "../../db/generated/client.ts";
import type { Limits } from "../runtime/limits/windows.ts";

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
  /** "client" (issued to a person or program) or "console" (a portal session's key). */
  kind: "client" | "console";
  scopes: string[];
  /** Per-key overrides; null fields fall back to the operator's defaults. */
  overrides: { [K in keyof Limits]: number | null };
  /** What the limiter counts against: the first key of the rotation lineage, so a rotation brings no fresh quota. */
  limitKey: string;
  /** True once the key was rotated: past its grace period it is refused as rotated, not expired. */
  replaced: boolean;
  status: "active" | "revoked";
  expiresAt: number | null;
  createdAt: number;
};

export function toKeyRecord(row: ApiKey): KeyRecord {
  return {
    id: row.id,
    hash: row.hash,
    prefix: row.prefix,
    name: row.name,
    userId: row.userId,
    kind: row.kind === "console" ? "console" : "client",
    scopes: row.scopes,
    overrides: { day: row.dayLimit, minute: row.minuteLimit, concurrency: row.concurrencyLimit },
    limitKey: row.lineageId ?? row.id,
    replaced: row.replacedBy !== null,
    status: row.status === "revoked" ? "revoked" : "active",
    expiresAt: row.expiresAt?.getTime() ?? null,
    createdAt: row.createdAt.getTime(),
  };
}

/** What the operator configured for console keys: their areas ([] = all) and default limits. */
export type ConsolePolicy = { scopes: string[]; limits: Limits };

/**
 * A console key as the gateway enforces it: the console areas and limits unless the operator set
 * the key's own. Applied when the record enters the key cache, so requests pay nothing for it.
 */
export function withConsolePolicy(record: KeyRecord, policy: ConsolePolicy | undefined): KeyRecord {
  if (record.kind !== "console" || !policy) return record;
  const { overrides: o, scopes } = record;
  return {
    ...record,
    scopes: scopes.length ? scopes : policy.scopes,
    overrides: {
      day: o.day ?? policy.limits.day,
      minute: o.minute ?? policy.limits.minute,
      concurrency: o.concurrency ?? policy.limits.concurrency,
    },
  };
}

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
 * `ollama:admin` may pull and delete models on the operator's own runner.
 */
export const OPERATOR_SCOPES = ["ollama:admin"] as const;
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
