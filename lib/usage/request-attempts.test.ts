import { describe, expect, it } from "vitest";
import {
  appendAttempts,
  attemptsOfColumn,
  MAX_ATTEMPT_TEXT,
  MAX_ATTEMPTS,
  worthKeeping,
  type RequestAttempt,
} from "./request-attempts.ts";

const attempt = (over: Partial<RequestAttempt> = {}): RequestAttempt => ({
  deployment: "primary",
  provider: "openai",
  model: "gpt-4.1",
  ms: 12,
  outcome: "ok",
  ...over,
});

describe("a routed call's attempts in the request log", () => {
  it("are kept unless one attempt answered", () => {
    expect(worthKeeping([])).toBe(false);
    expect(worthKeeping([attempt()])).toBe(false);
    expect(worthKeeping([attempt({ outcome: "failed", status: 401, reason: "credentials" })])).toBe(true);
    expect(worthKeeping([attempt({ outcome: "skipped", reason: "breaker-open", ms: 0 })])).toBe(true);
    expect(worthKeeping([attempt({ outcome: "retried", status: 429 }), attempt()])).toBe(true);
  });

  it("are kept for a call that answered on the owner's own key, which they mark", () => {
    expect(worthKeeping([attempt({ ownerKey: true })])).toBe(true);
    const kept = appendAttempts([], [attempt({ ownerKey: true })]);
    expect(kept).toEqual([attempt({ ownerKey: true })]);
    expect(attemptsOfColumn(JSON.parse(JSON.stringify(kept)))).toEqual(kept);
  });

  it("keep at most MAX_ATTEMPTS, ending with the last one made", () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      attempt({ deployment: `d${i}`, outcome: i === 29 ? "ok" : "failed" }),
    );
    const kept = appendAttempts([], many);
    expect(kept).toHaveLength(MAX_ATTEMPTS);
    expect(kept.slice(0, 3).map((a) => a.deployment)).toEqual(["d0", "d1", "d2"]);
    expect(kept.at(-1)).toMatchObject({ deployment: "d29", outcome: "ok" });
    // A second routed call in the same request adds to the first's.
    expect(
      appendAttempts(appendAttempts([], [attempt({ deployment: "x" })]), [attempt()]).map((a) => a.deployment),
    ).toEqual(["x", "primary"]);
  });

  it("store names cut short and storable, and whole milliseconds", () => {
    const [a] = appendAttempts(
      [],
      [attempt({ model: "m".repeat(5000), reason: `bad\u0000${"\ud800"}`, ms: 12.6, status: 503 })],
    );
    expect(a!.model).toHaveLength(MAX_ATTEMPT_TEXT);
    expect(a!.reason).toBe("bad\ufffd");
    expect(a!.ms).toBe(13);
    expect(a!.status).toBe(503);
  });

  it("read back from the column: null when absent or not a list this version knows", () => {
    expect(attemptsOfColumn(null)).toBeNull();
    expect(attemptsOfColumn([attempt()])).toEqual([attempt()]);
    expect(attemptsOfColumn([{ deployment: "x" }])).toBeNull();
    expect(attemptsOfColumn({ attempts: [] })).toBeNull();
  });
});
