import { isOperatorScope, type EnforcedTerms, type TermSource } from "../../gateway/keys/record.ts";
import type { Limits } from "../../gateway/runtime/limits/windows.ts";

/** Where a limit comes from, in the words of the admin page and the environment variable that sets it. */
export function limitSourceText(source: TermSource, window: keyof Limits): string {
  const suffix = window.toUpperCase();
  if (source === "key") return "set for this key";
  return source === "console" ? `console default, CONSOLE_LIMIT_${suffix}` : `service default, LIMIT_${suffix}`;
}

/**
 * The areas a key reaches, as keyAllowsArea decides: its area scopes, or "every area" when it has none.
 * Operator scopes (ollama:admin) are powers on top of the areas, named after them.
 */
export function areasText(scopes: EnforcedTerms["scopes"]): string {
  const areas = scopes.value.filter((s) => !isOperatorScope(s));
  const powers = scopes.value.filter(isOperatorScope);
  return [areas.length ? areas.join(", ") : "every area", ...powers].join(", and ");
}

/** A key's model rules as the router applies them (model-rules.ts): deny wins, an empty allow list is any model. */
export function modelRulesText(models: { allow: readonly string[]; deny: readonly string[] }): string {
  const allowed = models.allow.length ? `only ${models.allow.join(", ")}` : "any model";
  return models.deny.length ? `${allowed}, never ${models.deny.join(", ")}` : allowed;
}

const SCOPE_WORDS: Record<string, string> = {
  key: "this key alone",
  user: "its owner's keys",
  team: "its team's keys",
};

/** A key's response-cache policy in words: "off" or "answers up to 1 h old, by meaning too, shared with its team's keys". */
export function cachePolicyText(cache: { max_age: number | null; semantic: boolean; scope: string }): string {
  if (cache.max_age === null) return "only when a request asks (Cache-Control)";
  const age =
    cache.max_age % 3600 === 0
      ? `${cache.max_age / 3600} h`
      : cache.max_age % 60 === 0
        ? `${cache.max_age / 60} min`
        : `${cache.max_age} s`;
  return `answers up to ${age} old${cache.semantic ? ", matched by meaning too" : ""}, kept for ${SCOPE_WORDS[cache.scope] ?? cache.scope}`;
}
