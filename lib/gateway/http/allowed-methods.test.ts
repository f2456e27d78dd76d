import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { methodsByPath } from "./allowed-methods.ts";

describe("methodsByPath", () => {
  it("names every method a path is served with, HEAD with GET, and nothing for an unknown path", () => {
    const app = new Hono();
    app.use(async (_c, next) => next());
    app.get("/v1/key", (c) => c.text("key"));
    app.post("/v1/items/:id", (c) => c.text("posted"));
    app.delete("/v1/items/:id", (c) => c.text("deleted"));
    const allowed = methodsByPath(app);
    expect(allowed("/v1/key")).toEqual(["GET", "HEAD"]);
    expect(allowed("/v1/items/42").sort()).toEqual(["DELETE", "POST"]);
    expect(allowed("/v1/nothing")).toEqual([]);
  });

  it("reads the routes on first use, so routes added after it is made count", () => {
    const app = new Hono();
    const allowed = methodsByPath(app);
    app.put("/late", (c) => c.text("late"));
    expect(allowed("/late")).toEqual(["PUT"]);
  });
});
