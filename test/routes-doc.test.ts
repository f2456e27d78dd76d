import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AREAS } from "../lib/app.ts";
import { routesDocument } from "../lib/gateway/pipeline/routes-doc.ts";

describe("docs/routes.md", () => {
  it("lists exactly the route table, each route with the file and line that declares it", () => {
    const written = readFileSync("docs/routes.md", "utf8");
    // Regenerate with `npm run routes:doc` when a route is added, moved or removed.
    expect(written).toBe(routesDocument(AREAS));
    expect(written).toMatch(/\| GET \| `\/v1\/key` \| key \| account \| \[lib\/api\/key\/index\.ts:\d+\]/);
  });
});
