// Third-party text an agent is about to read (a tool's result: a data source's records, a fetched page)
// under the key's guardrail policy: scored for prompt injection before the agent sees it. A result that
// fires is withheld under block and redact (the agent is told why, and goes on without it) and passed on
// under flag; either way the decision goes in the tool call's request-log row.
import type { GuardrailDecision } from "./decision.ts";
import { scoreInjection, type InjectionResult } from "./injection.ts";
import type { GuardrailPolicy } from "./policy.ts";

/** The strings of a result scored, and their total length: a tool's answer is bounded, this bounds the check. */
const MAX_STRINGS = 2_000;
const MAX_CHARS = 512 * 1024;

export type ScreenedResult = { result: unknown; decisions: GuardrailDecision[] };

/** Every string in a JSON-like value, depth first, within the bounds above. */
function stringsOf(value: unknown, out: string[] = [], budget = { chars: MAX_CHARS }): string[] {
  if (out.length >= MAX_STRINGS || budget.chars <= 0) return out;
  if (typeof value === "string") {
    out.push(value.slice(0, budget.chars));
    budget.chars -= value.length;
  } else if (Array.isArray(value)) for (const v of value) stringsOf(v, out, budget);
  else if (value && typeof value === "object") for (const v of Object.values(value)) stringsOf(v, out, budget);
  return out;
}

export function screenToolResult(policy: GuardrailPolicy | undefined, tool: string, result: unknown): ScreenedResult {
  if (!policy?.checks.includes("injection")) return { result, decisions: [] };
  let worst: InjectionResult = { score: 0, signals: {} };
  for (const text of stringsOf(result)) {
    const scored = scoreInjection(text);
    if (scored.score > worst.score) worst = scored;
  }
  if (worst.score < policy.injectionThreshold) return { result, decisions: [] };
  const action = policy.action === "flag" ? "flag" : "block";
  const decisions: GuardrailDecision[] = [
    { policy: policy.name, check: "injection", action, stage: "tool", found: worst.signals, score: worst.score },
  ];
  if (action === "flag") return { result, decisions };
  const signs = Object.keys(worst.signals).join(", ");
  return {
    result: {
      withheld: `guardrails: this ${tool} result looks like a prompt injection (score ${worst.score}: ${signs}) and was withheld; answer without it`,
    },
    decisions,
  };
}
