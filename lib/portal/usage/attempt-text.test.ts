import { describe, expect, it } from "vitest";
import type { RequestAttempt } from "../../usage/request-attempts.ts";
import { attemptReason } from "./attempt-text.ts";

const attempt = (over: Partial<RequestAttempt>): RequestAttempt => ({
  deployment: "primary",
  provider: "openai",
  model: "gpt-4.1",
  ms: 10,
  outcome: "ok",
  ...over,
});

describe("an attempt's reason as the request detail page shows it", () => {
  it("says why it ended and what the router did next", () => {
    expect(attemptReason(attempt({ outcome: "retried", status: 429, reason: "rate-limited" }), false)).toBe(
      "rate-limited, retried after backoff",
    );
    expect(attemptReason(attempt({ outcome: "failed", status: 500, reason: "server" }), false)).toBe(
      "server error, fell over to the next deployment",
    );
    expect(attemptReason(attempt({ outcome: "failed", status: 503, reason: "overloaded" }), true)).toBe(
      "overloaded, gave up",
    );
    expect(attemptReason(attempt({ outcome: "skipped", reason: "breaker-open" }), false)).toBe("breaker open, skipped");
    expect(attemptReason(attempt({ outcome: "skipped", reason: "not-configured" }), false)).toBe(
      "credential not set, skipped",
    );
    expect(attemptReason(attempt({ outcome: "skipped", reason: "denied-by-key" }), false)).toBe(
      "refused by this key's model rules, skipped",
    );
    expect(attemptReason(attempt({ outcome: "ok" }), true)).toBe("answered");
  });

  it("says when an attempt went out on the owner's own provider key", () => {
    expect(attemptReason(attempt({ outcome: "ok", ownerKey: true }), true)).toBe(
      "answered (on the owner's own provider key)",
    );
    expect(attemptReason(attempt({ outcome: "failed", reason: "credentials", ownerKey: true }), false)).toBe(
      "credential refused, fell over to the next deployment (on the owner's own provider key)",
    );
  });

  it("shows a reason it has no words for as it was stored", () => {
    expect(attemptReason(attempt({ outcome: "failed", reason: "quota-exhausted" }), true)).toBe(
      "quota-exhausted, gave up",
    );
    expect(attemptReason(attempt({ outcome: "failed" }), false)).toBe("failed, fell over to the next deployment");
  });
});
