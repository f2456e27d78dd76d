// The worker thread's side of a long prompt's checks (prompt-offload.ts): the policy rebuilt from its
// declaration once per thread and declaration, the prompt checked as the request's thread would.
import { toPolicy, type GuardrailPolicy, type GuardrailPolicySpec } from "./policy.ts";
import { guardPrompt, promptSlots, type PromptGuard } from "./prompt-guard.ts";

/** Policies this thread has built, by name and declaration: a reloaded routing file's changed policy is built again. */
const built = new Map<string, GuardrailPolicy>();
const MAX_BUILT = 64;

function policyOf(name: string, spec: GuardrailPolicySpec): GuardrailPolicy {
  const id = `${name}\n${JSON.stringify(spec)}`;
  let policy = built.get(id);
  if (!policy) {
    if (built.size >= MAX_BUILT) built.clear();
    built.set(id, (policy = toPolicy(name, spec)));
  }
  return policy;
}

export function guardOnThread(
  name: string,
  spec: GuardrailPolicySpec,
  body: Record<string, unknown>,
): { guard: PromptGuard; texts: string[] } {
  const guard = guardPrompt(policyOf(name, spec), body);
  return { guard, texts: promptSlots(body).map((slot) => slot.read()) };
}
