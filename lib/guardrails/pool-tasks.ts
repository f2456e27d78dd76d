import { poolTask } from "../gateway/runtime/worker-pool.ts";
import type { GuardrailPolicySpec } from "./policy.ts";
import type { PromptGuard } from "./prompt-guard.ts";

/**
 * A long prompt's local checks, run on the worker pool (implemented in lib/workers/heavy-tasks.ts): the
 * policy as declared and the body; back come the decisions and the prompt's texts as the checks left
 * them (redacted or masked), in promptSlots order.
 */
export const guardPromptTask = poolTask<
  { name: string; spec: GuardrailPolicySpec; body: Record<string, unknown> },
  { guard: PromptGuard; texts: string[] }
>("guardPrompt");
