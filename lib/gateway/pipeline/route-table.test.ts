import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { Area } from "../http/area.ts";
import { gatewayRoute } from "../http/route.ts";
import { route } from "./route.ts";
import { pathOf, RouteTable } from "./route-table.ts";

const ok = { 200: { description: "ok", content: { "application/json": { schema: z.object({}) } } } };
const def = (method: "get" | "post" | "delete", path: string) =>
  route(gatewayRoute("key", { method, path, responses: ok }), () => ({}));
const area = (routes: ReturnType<typeof def>[], respond?: Area["respond"]): Area => ({
  name: "t",
  scope: "t",
  paths: ["/v1/t/*"],
  routes,
  ...(respond ? { respond } : {}),
});

function tableOf(...routes: ReturnType<typeof def>[]): RouteTable {
  const table = new RouteTable();
  for (const r of routes) table.add(area([r]), r);
  return table;
}

describe("RouteTable", () => {
  it("finds an exact path by one lookup, HEAD by GET's route, a trailing slash ignored", () => {
    const table = tableOf(def("get", "/v1/t/items"));
    expect(table.match("GET", "/v1/t/items")?.entry.template).toBe("/v1/t/items");
    expect(table.match("HEAD", "/v1/t/items")?.entry.template).toBe("/v1/t/items");
    expect(table.match("GET", "/v1/t/items/")?.entry.template).toBe("/v1/t/items");
    expect(table.match("POST", "/v1/t/items")).toBeUndefined();
  });

  it("decodes parameters whole, and prefers an exact path over a parameterised one", () => {
    const table = tableOf(def("get", "/v1/t/{category}"), def("get", "/v1/t/books"), def("get", "/v1/t/{a}/x/{b}"));
    expect(table.match("GET", "/v1/t/books")?.entry.template).toBe("/v1/t/books");
    expect(table.match("GET", "/v1/t/caf%C3%A9")).toMatchObject({ params: { category: "café" } });
    expect(table.match("GET", "/v1/t/a%2Fb")).toMatchObject({ params: { category: "a/b" } });
    expect(table.match("GET", "/v1/t/1/x/2")).toMatchObject({ params: { a: "1", b: "2" } });
    expect(table.match("GET", "/v1/t/1/y/2")).toBeUndefined();
  });

  it("tries the more literal of two parameterised paths first, whatever order they were added in", () => {
    const routes = [
      def("get", "/v1/t/{source}/get/{id}"),
      def("get", "/v1/t/wiki/get/{id}"),
      def("get", "/v1/t/{a}/get/x"),
    ];
    for (const order of [routes, [...routes].reverse(), [routes[1]!, routes[0]!, routes[2]!]]) {
      const table = tableOf(...order);
      expect(table.match("GET", "/v1/t/wiki/get/x")?.entry.template).toBe("/v1/t/wiki/get/{id}");
      expect(table.match("GET", "/v1/t/arxiv/get/x")?.entry.template).toBe("/v1/t/{a}/get/x");
      expect(table.match("GET", "/v1/t/arxiv/get/y")?.entry.template).toBe("/v1/t/{source}/get/{id}");
    }
  });

  it("refuses two parameterised paths that match the same paths", () => {
    expect(() => tableOf(def("get", "/v1/t/{a}/x"), def("get", "/v1/t/{b}/x"))).toThrow(/declared twice/);
  });

  it("lists a path's methods for a 405's Allow, HEAD with GET", () => {
    const table = tableOf(def("get", "/v1/t/{id}"), def("delete", "/v1/t/{id}"), def("post", "/v1/t/new"));
    expect(table.allowed("/v1/t/7").sort()).toEqual(["DELETE", "GET", "HEAD"]);
    // /v1/t/new is also an {id}: its DELETE and GET are the parameterised routes.
    expect(table.allowed("/v1/t/new").sort()).toEqual(["DELETE", "GET", "HEAD", "POST"]);
    expect(table.allowed("/v1/nothing")).toEqual([]);
  });

  it("takes a route's answer options from its area unless it declares its own", () => {
    const shape = () => ({ shaped: true });
    const table = new RouteTable();
    const r = def("get", "/v1/t/feed");
    table.add(area([r], { untrusted: true, errors: shape }), r);
    expect(table.match("GET", "/v1/t/feed")?.entry.respond).toEqual({ untrusted: true, errors: shape });
    expect(table.match("GET", "/v1/t/feed")?.entry.label).toBe("/v1/t/feed");
  });

  it("refuses the same method and path declared twice", () => {
    expect(() => tableOf(def("get", "/v1/t/a"), def("get", "/v1/t/a"))).toThrow(/declared twice/);
  });

  it("matches malformed percent-encoding as sent", () => {
    expect(pathOf("/v1/t/%E0%A4%A")).toBe("/v1/t/%E0%A4%A");
  });
});
