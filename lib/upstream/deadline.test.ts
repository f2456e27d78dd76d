import { describe, expect, it } from "vitest";
import { withDeadline } from "./deadline.ts";

const gc = (globalThis as { gc?: () => void }).gc;

describe("withDeadline", () => {
  it("aborts with a TimeoutError once the time is up, even when nothing else holds it", async () => {
    const caller = new AbortController();
    const signal = withDeadline(caller.signal, 100);
    const reason = await new Promise<unknown>((resolve) =>
      signal.addEventListener("abort", () => resolve(signal.reason)),
    );
    expect((reason as Error).name).toBe("TimeoutError");
  });

  it("follows the caller's signal, with its reason", () => {
    const caller = new AbortController();
    const signal = withDeadline(caller.signal, 60_000);
    caller.abort(new Error("client gone"));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("client gone");
    expect(withDeadline(caller.signal, 60_000).aborted).toBe(true);
  });

  it("works without a caller's signal", async () => {
    const signal = withDeadline(undefined, 50);
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(signal.aborted).toBe(true);
  });
});
