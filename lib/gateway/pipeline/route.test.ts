import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { gatewayRoute } from "../http/route.ts";
import { callerOf, route } from "./route.ts";

describe("route", () => {
  it("pairs a contract with its handler and remembers where it was declared", () => {
    const contract = gatewayRoute("key", {
      method: "get",
      path: "/v1/example",
      responses: { 200: { description: "ok", content: { "application/json": { schema: z.object({}) } } } },
    });
    const def = route(contract, () => ({}));
    expect(def.access).toMatchObject({ auth: "key", budgeted: true, untrusted: false });
    expect(def.source).toMatch(/^lib\/gateway\/pipeline\/route\.test\.ts:\d+$/);
  });

  it("refuses a contract not built by gatewayRoute", () => {
    expect(() => route({ method: "get", path: "/v1/raw", responses: {} } as never, () => ({}) as never)).toThrow(
      /gatewayRoute/,
    );
  });

  it("reads the caller's file and line from a stack in either frame form", () => {
    const cwd = process.cwd();
    expect(callerOf(`Error\n    at route (x)\n    at file://${cwd}/lib/api/a/routes.ts:12:5`)).toBe(
      "lib/api/a/routes.ts:12",
    );
    expect(callerOf(`Error\n    at route (x)\n    at Object.<anonymous> (${cwd}/lib/b.ts:3:1)`)).toBe("lib/b.ts:3");
    expect(callerOf(undefined)).toBeUndefined();
  });
});
