import type { ApiKey } from "../db/generated/client.ts";
import type { Limits } from "./limits/limiter.ts";

/** What the gateway keeps in memory about a key: enough to authenticate, scope and limit a request. */
export type KeyRecord = {
  id: string;
  hash: string;
  prefix: string;
  name: string;
  userId: string | null;
  scopes: string[];
  /** Per-key overrides; null fields fall back to the operator's defaults. */
  overrides: { [K in keyof Limits]: number | null };
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
    scopes: row.scopes,
    overrides: { day: row.dayLimit, minute: row.minuteLimit, concurrency: row.concurrencyLimit },
    status: row.status === "revoked" ? "revoked" : "active",
    expiresAt: row.expiresAt?.getTime() ?? null,
    createdAt: row.createdAt.getTime(),
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
  return key.scopes.length === 0 || ALWAYS_ALLOWED.has(area) || key.scopes.includes(area) || key.scopes.every(isOperatorScope);
}
