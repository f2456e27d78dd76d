import { describe, expect, it } from "vitest";
import { usd } from "./summary.ts";

describe("usd", () => {
  it("shows a cost to the hundredth of a cent below a dollar, and never a spent cost as $0.00", () => {
    expect(usd(null)).toBe("—");
    expect(usd(0)).toBe("$0.00");
    expect(usd(0.00002)).toBe("< $0.0001");
    expect(usd(0.00045)).toBe("$0.0005");
    expect(usd(0.0123)).toBe("$0.0123");
    expect(usd(12.5)).toBe("$12.50");
  });
});
