import { describe, expect, it } from "vitest";
import { normalizeSignInAddress } from "./address.ts";
import { createSignInLimiter } from "./limits.ts";

const T0 = Date.parse("2026-03-15T12:00:00Z");
const MIN = 60_000;

describe("sign-in link limits", () => {
  it("allows 5 links per address in 15 minutes, any spelling that mails it, then says when to retry", () => {
    const limiter = createSignInLimiter();
    const spellings = [
      "ops@example.test",
      "Ops@Example.test ",
      " OPS@EXAMPLE.TEST",
      "ops@example.test,x",
      "ｏｐｓ@example.test",
    ];
    for (const [i, spelling] of spellings.entries())
      expect(limiter.admit(normalizeSignInAddress(spelling)!, `10.0.0.${i}`, T0 + i * MIN)).toBeNull();
    const refused = limiter.admit("ops@example.test", "10.0.0.9", T0 + 5 * MIN);
    expect(refused?.message).toMatch(/Too many sign-in links for this address: 5 in 15 minutes/);
    expect(refused?.retryAfterSeconds).toBe(10 * 60);
    // The first link leaves the window 15 minutes after it was sent.
    expect(limiter.admit("ops@example.test", "10.0.0.9", T0 + 15 * MIN + 1)).toBeNull();
    expect(limiter.admit("someone@else.test", "10.0.0.9", T0 + 5 * MIN)).toBeNull();
  });

  it("allows 20 links per client address in an hour, whatever the email addresses", () => {
    const limiter = createSignInLimiter();
    for (let i = 0; i < 20; i++) expect(limiter.admit(`user${i}@example.test`, "203.0.113.7", T0 + i * MIN)).toBeNull();
    expect(limiter.admit("user99@example.test", "203.0.113.7", T0 + 21 * MIN)).toMatchObject({
      message: expect.stringMatching(/from your network: 20 in 60 minutes/),
      retryAfterSeconds: 39 * 60,
    });
    expect(limiter.admit("user99@example.test", "198.51.100.1", T0 + 21 * MIN)).toBeNull();
  });

  it("remembers a bounded number of addresses, forgetting the least recently seen", () => {
    const limiter = createSignInLimiter(
      { perAddress: { limit: 1, windowMs: 60 * MIN }, perClient: { limit: 1000, windowMs: 60 * MIN } },
      4,
    );
    expect(limiter.admit("a@x.test", "c", T0)).toBeNull();
    for (const who of ["b", "d", "e"]) limiter.admit(`${who}@x.test`, "c", T0);
    // a@x.test fell out of the 4 remembered keys (addresses and the client share the bound): admitted again.
    expect(limiter.admit("a@x.test", "c", T0)).toBeNull();
  });
});
