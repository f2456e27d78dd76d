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
