import { describe, expect, it } from "vitest";
import { isDatabaseUnreachable } from "./unreachable.ts";

describe("isDatabaseUnreachable", () => {
  it("recognises Prisma's and the driver's ways of saying the server is away", () => {
    expect(isDatabaseUnreachable({ code: "P1001", meta: {} })).toBe(true);
    expect(
      isDatabaseUnreachable({
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } },
      }),
    ).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnreachable(new Error("wrapped", { cause: { code: "57P01" } }))).toBe(true);
  });

  it("leaves query errors and everything else alone", () => {
    expect(isDatabaseUnreachable({ code: "P2002" })).toBe(false);
    expect(isDatabaseUnreachable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnreachable(undefined)).toBe(false);
    expect(isDatabaseUnreachable("ECONNREFUSED")).toBe(false);
  });
});
