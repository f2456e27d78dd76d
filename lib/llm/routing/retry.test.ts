import { describe, expect, it } from "vitest";
import { GatewayError, RateLimitError } from "../../errors.ts";
import { CallStop } from "../../upstream/call-stop.ts";
import { upstreamStatusError } from "../../upstream/http.ts";
import {
  backoffMs,
  breakerOutcome,
  classifyFailure,
  parseRetryAfter,
  pause,
  RetryBudget,
  type Failure,
  type RetryPolicy,
} from "./retry.ts";

const NOW = Date.parse("2026-12-03T12:00:00Z");
const answered = (status: number, retryAfter?: string, detail = "nope", retryAfterMs?: string) =>
  upstreamStatusError("openai", status, retryAfter, detail, retryAfterMs);

describe("classifyFailure", () => {
  it.each([
    [429, "rate-limited"],
    [500, "server"],
    [502, "server"],
    [503, "overloaded"],
    [504, "timeout"],
    [529, "overloaded"],
  ])("retries a deployment's %i (%s), keeping the status though we answer another", (status, reason) => {
    const err = answered(status);
    expect(classifyFailure(err)).toEqual({ retryable: true, reason, status });
  });

  it.each([
    [400, "client"],
    [401, "credentials"],
    [403, "credentials"],
    [404, "client"],
    [422, "client"],
    [501, "server"],
  ])("never retries a deployment's %i (%s)", (status, reason) => {
    expect(classifyFailure(answered(status))).toEqual({ retryable: false, reason, status });
  });

  it("never retries a content-filter refusal, which another deployment would refuse as well", () => {
    const err = answered(400, undefined, "The response was filtered due to Azure OpenAI's content management policy");
    expect(classifyFailure(err)).toEqual({ retryable: false, reason: "refusal", status: 400 });
    expect(classifyFailure(answered(400, undefined, "code: content_filter")).reason).toBe("refusal");
  });

  it("carries Retry-After in seconds, as an HTTP date, and prefers retry-after-ms", () => {
    expect(classifyFailure(answered(429, "7"), { now: NOW }).retryAfterMs).toBe(7_000);
    const date = new Date(NOW + 12_000).toUTCString();
    expect(classifyFailure(answered(503, date), { now: NOW }).retryAfterMs).toBe(12_000);
    expect(classifyFailure(answered(429, "7", "slow down", "1500"), { now: NOW }).retryAfterMs).toBe(1_500);
    expect(classifyFailure(answered(429, "soon"), { now: NOW })).not.toHaveProperty("retryAfterMs");
  });

  it("marks a 429 on one owner's own credential, and the gateway's own limits, as our excess", () => {
    expect(classifyFailure(answered(429), { ownCredential: true })).toMatchObject({ retryable: true, ownExcess: true });
    expect(classifyFailure(answered(503), { ownCredential: true }).ownExcess).toBeUndefined();
    const ours = new RateLimitError("minute limit reached", 12, "minute");
    expect(classifyFailure(ours)).toEqual({ retryable: false, reason: "rate-limited", status: 429, ownExcess: true });
  });

  it("retries connections that failed and answers that never came", () => {
    expect(classifyFailure(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }))).toEqual({
      retryable: true,
      reason: "connection",
    });
    expect(classifyFailure(Object.assign(new Error("socket"), { code: "UND_ERR_SOCKET" })).reason).toBe("connection");
    expect(classifyFailure(new DOMException("no answer within 10 ms", "TimeoutError")).reason).toBe("timeout");
    expect(classifyFailure(new GatewayError(502, "openai could not be reached"))).toEqual({
      retryable: true,
      reason: "connection",
    });
    expect(classifyFailure(new GatewayError(504, "openai did not answer in time")).reason).toBe("timeout");
  });

  it("does not retry a request the client cancelled", () => {
    expect(classifyFailure(new DOMException("gone", "AbortError"))).toEqual({ retryable: false, reason: "cancelled" });
    expect(classifyFailure(new GatewayError(499 as never, "request cancelled")).retryable).toBe(false);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds, fractions, past dates as no wait, and rejects nonsense", () => {
    expect(parseRetryAfter(" 3 ", NOW)).toBe(3_000);
    expect(parseRetryAfter("0.25", NOW)).toBe(250);
    expect(parseRetryAfter(new Date(NOW - 5_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter("-1", NOW)).toBeUndefined();
    expect(parseRetryAfter("", NOW)).toBeUndefined();
  });
});

describe("breakerOutcome", () => {
  it("counts only the deployment's own ill health against its breaker", () => {
    expect(breakerOutcome(null)).toBe("success");
    expect(breakerOutcome(classifyFailure(answered(503)))).toBe("failure");
    expect(breakerOutcome(classifyFailure(answered(401)))).toBe("failure");
    expect(breakerOutcome(classifyFailure(answered(400)))).toBe("success");
    expect(breakerOutcome(classifyFailure(answered(429), { ownCredential: true }))).toBe("not-counted");
    expect(breakerOutcome(classifyFailure(new RateLimitError("burst", 1, "minute")))).toBe("not-counted");
    expect(breakerOutcome(classifyFailure(new DOMException("gone", "AbortError")))).toBe("not-counted");
    // A bug of ours is no sign of the deployment's health.
    expect(breakerOutcome(classifyFailure(new TypeError("x is undefined")))).toBe("not-counted");
  });
});

describe("backoffMs", () => {
  it("doubles its ceiling per attempt up to maxMs, with full jitter", () => {
    const top = () => 0.999999;
    const ceilings = [0, 1, 2, 3, 4, 5].map((a) => backoffMs(a, { baseMs: 100, maxMs: 1_000, random: top }));
    expect(ceilings).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffMs(3, { baseMs: 100, maxMs: 1_000, random: () => 0 })).toBe(0);
    expect(backoffMs(2, { baseMs: 100, maxMs: 1_000, random: () => 0.5 })).toBe(200);
  });
});

describe("RetryBudget", () => {
  const retryable: Failure = { retryable: true, reason: "overloaded", status: 503 };
  const policy = (now: number): RetryPolicy => ({
    maxAttempts: 3,
    baseMs: 100,
    maxMs: 1_000,
    minAttemptMs: 500,
    random: () => 0.5,
    now: () => now,
  });

  it("waits with backoff, then gives up when attempts run out", () => {
    const budget = new RetryBudget(NOW + 30_000, policy(NOW));
    expect(budget.planNext(1, retryable)).toEqual({ action: "retry", waitMs: 50 });
    expect(budget.planNext(2, retryable)).toEqual({ action: "retry", waitMs: 100 });
    expect(budget.planNext(3, retryable)).toEqual({ action: "give-up", why: "attempts" });
  });

  it("never retries what is not retryable", () => {
    const budget = new RetryBudget(NOW + 30_000, policy(NOW));
    expect(budget.planNext(1, { retryable: false, reason: "client", status: 400 })).toEqual({
      action: "give-up",
      why: "not-retryable",
    });
  });

  it("honours a Retry-After that fits before the deadline, and moves on from one that does not", () => {
    const budget = new RetryBudget(NOW + 10_000, policy(NOW));
    expect(budget.planNext(1, { ...retryable, retryAfterMs: 2_000 })).toEqual({ action: "retry", waitMs: 2_000 });
    expect(budget.planNext(1, { ...retryable, retryAfterMs: 9_800 })).toEqual({ action: "next-deployment" });
  });

  it("gives up once too little time is left for another attempt", () => {
    const budget = new RetryBudget(NOW + 400, policy(NOW));
    expect(budget.planNext(1, retryable)).toEqual({ action: "give-up", why: "deadline" });
    expect(new RetryBudget(NOW - 1, policy(NOW)).remainingMs()).toBe(0);
  });
});

describe("pause", () => {
  it("ends early, saying so, when the request's stop fires", async () => {
    const stop = new CallStop();
    const waited = pause(60_000, stop);
    stop.abort();
    expect(await waited).toBe(false);
    expect(await pause(10, new CallStop())).toBe(true);
    expect(await pause(10, stop)).toBe(false);
  });
});
