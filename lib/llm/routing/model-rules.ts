import { GatewayError } from "../../errors.ts";
import type { ModelRules } from "../../gateway/keys/record.ts";

/** What a rule is checked against: a deployment's provider and the provider's model id. */
export type RuledCandidate = { entry: { name: string }; modelId: string };

type Pattern = { text: string; test: (name: string) => boolean };
type CompiledRules = { allow: Pattern[]; deny: Pattern[] };

// A key's rules are compiled once: its record stays in the key cache, so the object is the same per request.
const compiled = new WeakMap<ModelRules, CompiledRules>();

/**
 * Letter case is ignored: a provider may take `GPT-4.1` for `gpt-4.1`, and a deny rule must not be
 * stepped round by writing the model otherwise.
 */
function compilePattern(text: string): Pattern {
  const lower = text.toLowerCase();
  if (!lower.includes("*")) return { text, test: (name) => name.toLowerCase() === lower };
  return { text, test: (name) => globMatch(lower, name.toLowerCase()) };
}

/**
 * `*` matches any run of characters. Two pointers, back to the last star on a mismatch: at most
 * pattern × name steps whatever the client sends, where a regular expression of several `.*` may
 * backtrack far longer.
 */
function globMatch(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = n;
    } else if (p < pattern.length && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

function compile(rules: ModelRules): CompiledRules {
  let found = compiled.get(rules);
  if (!found) {
    found = { allow: rules.allow.map(compilePattern), deny: rules.deny.map(compilePattern) };
    compiled.set(rules, found);
  }
  return found;
}

/** Whether `name` matches `pattern`: equal, or with each `*` standing for any run of characters. */
export function matchesModelPattern(pattern: string, name: string): boolean {
  return compilePattern(pattern).test(name);
}

const first = (patterns: Pattern[], name: string) => patterns.find((p) => p.test(name));

/** A 403 from a key's model rules: a fallback model refused so is passed over (ModelRouter.addFallbacks). */
export class ModelRefusedError extends GatewayError {
  constructor(model: string, rule: string) {
    super(403, `model '${model}' is refused by this key's rule ${rule}`);
    this.name = "ModelRefusedError";
  }
}

const refused = (model: string, rule: string) => new ModelRefusedError(model, rule);

/**
 * The candidates a key may send `model` (an alias, or provider/model) to. A model the deny list
 * names is refused outright; a deployment it names (by provider/model) is dropped. With an allow list,
 * a model it names keeps its deployments, and any other keeps only the deployments it names. A 403
 * naming the rule that left nothing.
 */
export function applyModelRules<C extends RuledCandidate>(model: string, candidates: C[], rules: ModelRules): C[] {
  const { allow, deny } = compile(rules);
  const denied = first(deny, model);
  if (denied) throw refused(model, `deny '${denied.text}'`);
  let kept = candidates;
  if (deny.length > 0) {
    let droppedBy: Pattern | undefined;
    kept = kept.filter((c) => {
      const hit = first(deny, `${c.entry.name}/${c.modelId}`);
      droppedBy ??= hit;
      return !hit;
    });
    if (kept.length === 0 && droppedBy) throw refused(model, `deny '${droppedBy.text}'`);
  }
  if (allow.length === 0 || first(allow, model)) return kept;
  kept = kept.filter((c) => first(allow, `${c.entry.name}/${c.modelId}`) !== undefined);
  if (kept.length === 0) throw refused(model, `allow ${allow.map((p) => `'${p.text}'`).join(", ")}`);
  return kept;
}
