import { beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../lib/tools/tools.ts";
import { schemaErrors, schemaInstances } from "./support/schema-instances.ts";
import { useToolGateway } from "./support/tool-gateway.ts";

// A tool's published JSON Schema is its contract: arguments it allows must not be refused. Before,
// the schemas said less than the sources check (arxiv_get_paper took any string as paper_id, and
// {"paper_id": "neural networks"} was a 400 "not an arXiv id"). Here every tool is called, over
// HTTP, with arguments generated from the schema GET /v1/tools/ publishes, and may answer 200, or
// 404 when the fake source has no such item, but never 400 (nor anything else).

type Listed = { name: string; schema: Record<string, unknown> };

describe("every tool accepts the arguments its published schema allows", () => {
  const { t } = useToolGateway();
  let listed: Map<string, Listed["schema"]>;
  beforeAll(async () => {
    const res = await fetch(new URL("/v1/tools/", t.gw.url));
    expect(res.status).toBe(200);
    listed = new Map(((await res.json()).tools as Listed[]).map((tool) => [tool.name, tool.schema]));
  });

  it("publishes a schema for each of the 36 tools", () => {
    expect([...listed.keys()].sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
  });

  it.each(TOOLS.map((tool) => tool.name))("%s: no generated argument set is refused", async (name) => {
    const schema = listed.get(name)!;
    const instances = schemaInstances(schema);
    expect(instances.length).toBeGreaterThanOrEqual(3);
    const refused: string[] = [];
    for (const { label, args } of instances) {
      // The premise: the generator made arguments the published schema allows.
      expect(schemaErrors(schema, args), `${name} ${label} ${JSON.stringify(args)}`).toBeNull();
      const res = await fetch(new URL(`/v1/tools/${name}`, t.gw.url), {
        method: "POST",
        headers: { "content-type": "application/json", "X-API-Key": t.key },
        body: JSON.stringify(args),
      });
      const body = await res.json();
      if (res.status !== 200 && res.status !== 404)
        refused.push(`${name} (${label}) ${JSON.stringify(args)} → ${res.status} ${body.error}`);
    }
    expect(refused).toEqual([]);
  });
});
