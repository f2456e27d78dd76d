import { RateLimitError } from "../errors.ts";
import type { TaskUpdate } from "./task-store.ts";

/**
 * Thrown by work a key started that goes on spending (a batch's items, research agents' model calls, a
 * video's polls) when the key's hard-stop budget refuses its next unit: the task ends `budget_exceeded`
 * with what was done (`done`) as its result. Where such work answers in the request (research without
 * async, /v1/swarm), it is the budget's 429 in Form B, as the guard would have answered.
 */
export class BudgetExceeded extends RateLimitError {
  constructor(
    refusal: RateLimitError,
    readonly done: unknown,
  ) {
    super(refusal.message, refusal.retryAfter, "budget", refusal.headers);
    this.name = "BudgetExceeded";
  }
}

/** The last update of a task whose work threw `err`: budget_exceeded with what was done, else failed. */
export function endedBy(err: unknown): TaskUpdate {
  if (err instanceof BudgetExceeded) return { status: "budget_exceeded", error: err.message, result: err.done };
  return { status: "failed", error: (err as Error).message ?? String(err) };
}
