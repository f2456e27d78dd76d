import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { REGENERATE, SCHEMA_FILE, schemaSource } from "./schema-source.ts";

/** The first line where two texts part, for a failure message that says where to look. */
function firstDifference(a: string, b: string): string {
  const [left, right] = [a.split("\n"), b.split("\n")];
  const at = left.findIndex((line, i) => line !== right[i]);
  const line = at === -1 ? Math.min(left.length, right.length) : at;
  return `line ${line + 1}: committed ${JSON.stringify(left[line])}, generated ${JSON.stringify(right[line])}`;
}

describe("lib/client/schema.d.ts", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("is what openapi-typescript makes of the document the gateway serves at /openapi.json", async () => {
    const res = await gw.request("/openapi.json");
    expect(res.status).toBe(200);
    const generated = await schemaSource(await res.json());
    const committed = readFileSync(SCHEMA_FILE, "utf8");
    // A route's contract changed without the client's types: regenerate them.
    expect(
      committed === generated,
      `${SCHEMA_FILE} differs from the routes (${firstDifference(committed, generated)}): run ${REGENERATE}`,
    ).toBe(true);
    expect(committed).toContain('"/v1/key": {');
  });
});
