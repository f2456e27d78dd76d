import { isOperatorScope, type KeyRecord, type ModelRules } from "../../../gateway/keys/record.ts";
import type { Limits, TokenLimits } from "../../../gateway/runtime/limits/windows.ts";

/** The scope that lets a key manage keys over /v1/admin/keys: every key's (no team), or its team's. */
export const KEYS_ADMIN = "keys:admin";

/** Whose keys a caller manages: every key (an operator's key, which has no team) or one team's. */
export type Reach = { kind: "all" } | { kind: "team"; teamId: string };

/** The caller's reach, or null when its key lacks keys:admin. */
export function reachOf(key: KeyRecord): Reach | null {
  if (!key.scopes.includes(KEYS_ADMIN)) return null;
  return key.teamId ? { kind: "team", teamId: key.teamId } : { kind: "all" };
}

/** What a key may do, as compared between a caller and a key it makes or changes. */
export type Rights = {
  /** Areas and operator scopes; [] (or operator scopes alone) = every area. */
  scopes: readonly string[];
  /** Each window's limit; null: the service default. */
  limits: { [K in keyof Limits]: number | null };
  tokens: TokenLimits;
  /** Epoch ms, or null for never. */
  expiresAt: number | null;
  models: ModelRules;
};

/** A caller's own rights, with its limits as they are enforced (the defaults filled in). */
export function rightsOf(key: KeyRecord, defaults: Limits): Rights & { limits: Limits } {
  return {
    scopes: key.scopes,
    limits: {
      day: key.overrides.day ?? defaults.day,
      minute: key.overrides.minute ?? defaults.minute,
      concurrency: key.overrides.concurrency ?? defaults.concurrency,
    },
    tokens: key.tokenLimits ?? {},
    expiresAt: key.expiresAt,
    models: key.models ?? { allow: [], deny: [] },
  };
}

const areasOf = (scopes: readonly string[]) => scopes.filter((s) => !isOperatorScope(s));

/**
 * Why `asked` would have more rights than `own`, or null when it has none beyond: an area, an operator
 * scope, a higher limit in any window (a null asks for the default), a later expiry (or none), a model
 * its rules do not allow. The one check for making, changing and rotating a key over the API.
 */
export function beyondRights(own: Rights & { limits: Limits }, asked: Rights, defaults: Limits): string | null {
  const ownAreas = areasOf(own.scopes);
  const askedAreas = areasOf(asked.scopes);
  if (ownAreas.length > 0) {
    if (askedAreas.length === 0) return `every area (this key may call only ${ownAreas.join(", ")})`;
    const extra = askedAreas.filter((s) => !ownAreas.includes(s));
    if (extra.length) return `the area${extra.length > 1 ? "s" : ""} ${extra.join(", ")}`;
  }
  const extraPowers = asked.scopes.filter((s) => isOperatorScope(s) && !own.scopes.includes(s));
  if (extraPowers.length) return `the scope ${extraPowers.join(", ")}`;
  for (const w of ["minute", "day", "concurrency"] as const) {
    const value = asked.limits[w] ?? defaults[w];
    if (value > own.limits[w]) return `a ${w} limit of ${value} (this key's is ${own.limits[w]})`;
  }
  for (const w of ["minute", "day"] as const) {
    const mine = own.tokens[w];
    const theirs = asked.tokens[w];
    if (mine !== undefined && (theirs === undefined || theirs > mine))
      return `${theirs === undefined ? "unlimited" : theirs} tokens a ${w} (this key's limit is ${mine})`;
  }
  if (own.expiresAt !== null && (asked.expiresAt === null || asked.expiresAt > own.expiresAt))
    return `${asked.expiresAt === null ? "no expiry" : "a later expiry"} (this key expires ${new Date(own.expiresAt).toISOString()})`;
  if (own.models.allow.length > 0) {
    const allowed =
      asked.models.allow.length === 0
        ? ["every model"]
        : asked.models.allow.filter((m) => !own.models.allow.includes(m));
    if (allowed.length)
      return `the models ${allowed.join(", ")} (this key may call only ${own.models.allow.join(", ")})`;
  }
  const undenied = own.models.deny.filter((m) => !asked.models.deny.includes(m));
  if (undenied.length) return `models this key is denied (${undenied.join(", ")})`;
  return null;
}

/**
 * What a new key gets where the request leaves a term out, made no wider than the caller's own: its
 * limits where the default would pass them, its token limits, expiry and model rules.
 */
export function inheritedRights(own: Rights & { limits: Limits }, asked: Partial<Rights>, defaults: Limits): Rights {
  const limit = (w: keyof Limits) =>
    asked.limits?.[w] !== undefined ? asked.limits[w] : defaults[w] > own.limits[w] ? own.limits[w] : null;
  return {
    // Areas only: an operator scope (keys:admin itself) is passed on only when asked for.
    scopes: asked.scopes ?? areasOf(own.scopes),
    limits: { day: limit("day"), minute: limit("minute"), concurrency: limit("concurrency") },
    tokens: {
      ...own.tokens,
      ...Object.fromEntries(Object.entries(asked.tokens ?? {}).filter(([, v]) => v !== undefined)),
    },
    expiresAt: asked.expiresAt !== undefined ? asked.expiresAt : own.expiresAt,
    models: {
      allow: asked.models?.allow?.length ? asked.models.allow : own.models.allow,
      deny: [...new Set([...own.models.deny, ...(asked.models?.deny ?? [])])],
    },
  };
}
