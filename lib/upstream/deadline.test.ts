import { describe, expect, it } from "vitest";
import { deadlineController, releaseDeadline, withDeadline } from "./deadline.ts";

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

  it("once released, never aborts and no longer listens to the caller's signal", async () => {
    const caller = new AbortController();
    const signal = withDeadline(caller.signal, 50);
    releaseDeadline(signal);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(signal.aborted).toBe(false);
    caller.abort(new Error("client gone"));
    expect(signal.aborted).toBe(false);
  });
});

describe("deadlineController", () => {
  it("is stopped by its holder, the caller's signal or the time, and stops listening once stopped", async () => {
    const caller = new AbortController();
    const held = deadlineController(caller.signal, 60_000);
    held.abort(new Error("relay gave up"));
    expect((held.signal.reason as Error).message).toBe("relay gave up");
    // Its listener on the caller's signal went with it: the caller aborting later changes nothing.
    caller.abort(new Error("client gone"));
    expect((held.signal.reason as Error).message).toBe("relay gave up");

    const client = new AbortController();
    const followed = deadlineController(client.signal, 60_000);
    client.abort(new Error("client gone"));
    expect((followed.signal.reason as Error).message).toBe("client gone");

    const timed = deadlineController(undefined, 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((timed.signal.reason as Error).name).toBe("TimeoutError");
  });
});
