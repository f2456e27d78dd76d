import { describe, expect, it } from "vitest";
import { enforcedLimits, limitSourceText } from "./enforced-limits.ts";

const config = {
  limits: { day: 10_000, minute: 60, concurrency: 8 },
  console: { limits: { day: 1000, minute: 30, concurrency: 4 } },
};

describe("enforcedLimits", () => {
  it("takes a key's own limits first, then the service defaults", () => {
    expect(enforcedLimits({ kind: "client", limits: { day: null, minute: 40, concurrency: null } }, config)).toEqual({
      day: { value: 10_000, source: "default" },
      minute: { value: 40, source: "key" },
      concurrency: { value: 8, source: "default" },
    });
  });

  it("gives a console key the console policy where it has no limits of its own", () => {
    expect(enforcedLimits({ kind: "console", limits: { day: 5, minute: null, concurrency: null } }, config)).toEqual({
      day: { value: 5, source: "key" },
      minute: { value: 30, source: "console" },
      concurrency: { value: 4, source: "console" },
    });
  });

  it("names the setting a default comes from", () => {
    expect(limitSourceText("default", "day")).toBe("service default, LIMIT_DAY");
    expect(limitSourceText("console", "minute")).toBe("console default, CONSOLE_LIMIT_MINUTE");
    expect(limitSourceText("key", "concurrency")).toBe("set for this key");
  });
});
