import { describe, expect, it } from "vitest";
import { RateLimitError } from "../errors.ts";
import { BudgetExceeded, endedBy } from "./budget-exceeded.ts";

describe("a task's end by its work's error", () => {
  const refusal = new RateLimitError("monthly budget exceeded: …", 3600, "budget", { "X-RateLimit-Remaining": "0" });

  it("is budget_exceeded, keeping what was done, when the key's budget stopped the work", () => {
    const stop = new BudgetExceeded(refusal, { results: [{ custom_id: "a" }] });
    expect(endedBy(stop)).toEqual({
      status: "budget_exceeded",
      error: "monthly budget exceeded: …",
      result: { results: [{ custom_id: "a" }] },
    });
    // Answered in a request, it is the budget's own 429.
    expect(stop).toBeInstanceOf(RateLimitError);
    expect(stop).toMatchObject({ status: 429, retryAfter: 3600, window: "budget" });
    expect(stop.headers).toMatchObject({ "Retry-After": "3600", "X-RateLimit-Remaining": "0" });
  });

  it("is failed with the error's message otherwise", () => {
    expect(endedBy(new Error("provider down"))).toEqual({ status: "failed", error: "provider down" });
  });
});
