// A prompt long enough for its local checks to hold the event loop past a millisecond (about 40 kB of
// text on the reference machine: docs/guardrails.md#cost) is checked on the worker pool instead, so
// the process keeps answering everyone else meanwhile. Shorter ones are checked in place: sending a body
// to a thread and back costs more than checking it.
import { runOnPool } from "../gateway/runtime/worker-pool.ts";
import type { Runtime } from "../gateway/runtime/runtime.ts";
import type { GuardrailPolicy } from "./policy.ts";
import { guardPromptTask } from "./pool-tasks.ts";
import { guardPrompt, promptSlots, type PromptGuard, type Slot } from "./prompt-guard.ts";

/** Characters of prompt text past which the checks run on a worker thread. */
export const OFFLOAD_CHARS = 32_768;

type Json = Record<string, unknown>;

/** The prompt's characters, counted only until they pass the threshold. */
export function isLongPrompt(slots: readonly Slot[], threshold = OFFLOAD_CHARS): boolean {
  let chars = 0;
  for (const slot of slots) if ((chars += slot.read().length) > threshold) return true;
  return false;
}

/**
 * The policy's local checks on `body`, as guardPrompt makes them: in place for a short prompt, on the
 * worker pool for a long one, whose texts are then written back as the checks left them.
 */
export function guardLocally(
  rt: Runtime,
  policy: GuardrailPolicy,
  body: Json,
  /** The pool's runner; a test hands in one that runs the thread's side in place. */
  onPool: typeof runOnPool = runOnPool,
): PromptGuard | Promise<PromptGuard> {
  // The texts are found once: counted here, then checked in place or written back after the thread's check.
  const slots = promptSlots(body);
  if (!isLongPrompt(slots)) return guardPrompt(policy, body, slots);
  return onPool(
    rt,
    guardPromptTask,
    { name: policy.name, spec: policy.spec, body },
    "the prompt's guardrail check",
  ).then(({ guard, texts }) => {
    slots.forEach((slot, i) => {
      const text = texts[i];
      if (text !== undefined && text !== slot.read()) slot.write(text);
    });
    return guard;
  });
}
