import { describe, expect, it } from "vitest";
import { throttled } from "./throttled.ts";

describe("throttled", () => {
  it("emits at once, then at most once per interval with the count of calls skipped", () => {
    let t = 0;
    const emitted: number[] = [];
    const call = throttled(
      1000,
      (skipped) => emitted.push(skipped),
      () => t,
    );
    call();
    call();
    call();
    t = 999;
    call();
    expect(emitted).toEqual([0]);
    t = 1000;
    call();
    expect(emitted).toEqual([0, 3]);
  });
});
